// SPDX-License-Identifier: GPL-3.0-or-later
// A memory bound for a command the tests start through /bin/sh, so that a command growing without
// bound fails its test instead of passing slowly.
#pragma once

#include <QString>

#include <cstdlib>

#if defined(__SANITIZE_ADDRESS__)
#define INFLIGHT_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define INFLIGHT_TEST_ASAN 1
#endif
#endif

namespace inflight_test {

// The shell line that bounds the CLI's memory to `vmem_kb` before it starts. Normally the
// address space (`ulimit -v`: growing past it is a bad_alloc). AddressSanitizer reserves
// terabytes of shadow address space at start, so under the asan preset the bound is on resident
// memory instead (ASan's hard_rss_limit_mb ends the process past it), with room for what ASan
// itself keeps: shadow, redzones and its quarantine of freed blocks (capped at 64 MB here).
// Unbounded growth still fails every case; the tight figures hold for the normal build.
inline QString memory_limit(const char *vmem_kb)
{
#ifdef INFLIGHT_TEST_ASAN
    const long rss_mb = std::strtol(vmem_kb, nullptr, 10) / 1000 * 2 + 256;
    return QStringLiteral("export ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=64:"
                          "hard_rss_limit_mb=%1\"; ")
        .arg(rss_mb);
#else
    return QStringLiteral("ulimit -v %1; ").arg(QLatin1String(vmem_kb));
#endif
}

} // namespace inflight_test
