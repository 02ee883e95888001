// SPDX-License-Identifier: GPL-3.0-or-later
// How the latency panel writes a modelled duration: in the unit the user picked, with the
// fraction that integer division would lose (a 410 ns call is "0.410 µs", not "0"). Whole
// nanoseconds are truncated, as funclatency prints its average.
#pragma once

#include "inflight/log2_histogram.hpp"

#include <QString>

#include <cstdint>

namespace latency {

QString unitSuffix(inflight::TimeUnit unit); // "ns", "µs", "ms"
// "1,825,567" (ns), "1,825.567" (µs), "1.826" (ms): grouped digits, 3 decimals past ns.
QString durationText(double ns, inflight::TimeUnit unit);
// The same with the unit: "1.826 ms".
QString durationWithUnit(double ns, inflight::TimeUnit unit);
// "1 call", "4,096 calls".
QString callsText(std::uint64_t n);

} // namespace latency
