// SPDX-License-Identifier: GPL-3.0-or-later
// What a step is about, for the camera and the findings' markers: the sockets and processes a
// text names (by the labels and process names the scene gave them), a process holding one of
// them when the text speaks of an fd, and the SCC being judged. The one place a subject is made
// from a step, so that a lesson's steps can later bring a subject of their own.
#pragma once

#include "inflight/graph_snapshot.hpp"

#include <QString>

#include <cstdint>
#include <vector>

struct StepSubject {
    std::vector<std::uint32_t> sockets;   // socket ids, sorted, unique
    std::vector<std::uint32_t> processes; // process ids, sorted, unique
    bool empty() const { return sockets.empty() && processes.empty(); }
    bool operator==(const StepSubject &) const = default;
};

// The objects `text` names, plus, with `scc` set, every socket whose SCC is being judged.
StepSubject subjectOfText(const inflight::GraphSnapshot &graph, const QString &text, bool scc = true);
