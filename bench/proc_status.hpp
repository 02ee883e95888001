// SPDX-License-Identifier: GPL-3.0-or-later
// What the benchmarks read of their own process: /proc/self/status lines (VmRSS, VmHWM) in kB.
// Linux only, like the figures the README quotes.
#pragma once

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

namespace bench {

// A line of /proc/self/status, in kB (0 if absent), e.g. status_kib("VmHWM") for the peak.
inline long status_kib(const char *key)
{
    std::ifstream f("/proc/self/status");
    std::string line;
    const std::size_t n = std::strlen(key);
    while (std::getline(f, line))
        if (line.compare(0, n, key) == 0 && line.size() > n && line[n] == ':')
            return std::strtol(line.c_str() + n + 1, nullptr, 10);
    return 0;
}

} // namespace bench
