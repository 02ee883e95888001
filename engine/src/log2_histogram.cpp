// Placeholder: the log2 (funclatency) histogram lands here (issue 4).
