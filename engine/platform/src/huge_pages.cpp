// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/huge_pages.hpp"

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace inflight {

void advise_huge_pages(void *block, std::size_t bytes) noexcept
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (block)
        ::madvise(block, bytes, MADV_HUGEPAGE);
#else
    (void)block;
    (void)bytes;
#endif
}

} // namespace inflight
