// SPDX-License-Identifier: GPL-3.0-or-later
// A scene written out as a standalone C program, in the manner of the kernel's AF_UNIX
// selftests: it unshares a network namespace (refusing to run without one unless given
// --allow-host-namespace), performs the scene with real syscalls and checks every errno and
// every socket's fate against what the model predicts, exiting 1 on a mismatch. Something to
// attach to a bug report.
#pragma once

#include "inflight/model_trace.hpp"
#include "inflight/replay_plan.hpp"

#include <string>
#include <vector>

namespace inflight {

struct ExportResult {
    std::string source;                  // the C program ("" when problems is not empty)
    std::vector<ReplayProblem> problems; // why the scene cannot be exported
};

// `title`, the plan's file and `model_name` become strings the program prints when it starts;
// every text of the scene reaches the source as a string literal (c_literal.hpp), never as code
// or in a comment.
ExportResult export_c(const ReplayPlan &plan, const ModelTrace &model, const std::string &title,
                      const std::string &model_name);

} // namespace inflight
