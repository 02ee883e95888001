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
    // Processes the text does not name but points at ("w2_8 is fd 59", "the fd that keeps it
    // alive"): those holding a named socket. They join the picture where they fit beside what
    // is named; a process holding every fd of a large scene is far from most of them, and the
    // sockets the text names come first. Sorted, unique, none of `processes`.
    std::vector<std::uint32_t> holders;
    bool empty() const { return sockets.empty() && processes.empty(); }
    bool operator==(const StepSubject &) const = default;
};

// The objects `text` names, plus, with `scc` set, every socket whose SCC is being judged.
StepSubject subjectOfText(const inflight::GraphSnapshot &graph, const QString &text, bool scc = true);
