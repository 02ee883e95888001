// SPDX-License-Identifier: GPL-3.0-or-later
// The note statement written on a line of the scene (inside repeat blocks too): what the
// views and the exports show as the lesson's note there.
#pragma once

#include "inflight/scene.hpp"

#include <cstdint>
#include <vector>

namespace lesson {

// nullptr when no note is on `line`.
const inflight::Statement *noteOnLine(const std::vector<inflight::Statement> &statements, std::uint32_t line);

} // namespace lesson
