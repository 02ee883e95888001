// Placeholder: the abstract name space and its hash table land here (issue 5).
