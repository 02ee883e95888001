// SPDX-License-Identifier: GPL-3.0-or-later
// Transparent huge pages, asked for where a block is large and will be touched whole: where the
// system gives them only on request (its "madvise" mode), a block is otherwise faulted in one
// 4 KiB page at a time, and a restored state touches every page of its tables.
#pragma once

#include <cstddef>

namespace inflight {

inline constexpr std::size_t kHugePageBytes = std::size_t(2) << 20;

// A hint only: does nothing where the system has no such pages or says no.
void advise_huge_pages(void *block, std::size_t bytes) noexcept;

} // namespace inflight
