// SPDX-License-Identifier: GPL-3.0-or-later
// What code outside the engine may ask of the kernel model, which it only ever holds as an
// opaque `const Kernel &` (Simulation::kernel()): the answers are ids and values, never the
// model's own objects (those are internal: engine/kernel/internal/).
#pragma once

#include "inflight/abstract_namespace.hpp"
#include "inflight/cost_model.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace inflight {

class Kernel;

// The id of the socket `label` names now (a label moves to the newest socket given it).
std::optional<std::uint32_t> socket_labelled(const Kernel &k, std::string_view label);
// How many sockets the run has made (ids 0..n-1, open or not), and the labels of the first
// `max` of them, by id.
std::size_t socket_count(const Kernel &k);
std::vector<std::string> socket_labels(const Kernel &k, std::size_t max);
// Every user's name, by user id (LatencySample::user).
std::vector<std::string> user_names(const Kernel &k);
bool has_user(const Kernel &k, std::string_view name);
// The abstract namespace (autobind's name space): an id-keyed table the autobind panel reads
// as it stands, too large (2^20 names) to copy into a snapshot at every step.
const AbstractNamespace &abstract_namespace(const Kernel &k);
// Every micro-step run so far, those a fast-forwarded run absorbed too (Simulation::steps()
// counts only those handed out).
std::uint64_t micro_steps_total(const Kernel &k);
// The cost of each kind of micro-step this run uses (the scene's `set cost` and overrides).
const CostModel &kernel_costs(const Kernel &k);

} // namespace inflight
