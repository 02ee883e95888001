// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/process_heap.hpp"

#include "inflight/block_source.hpp"
#include "inflight/recycling_block_source.hpp"

#include <cstdlib>
#include <fstream>
#include <string>

#if defined(__linux__) && defined(__GLIBC__)
#include <gnu/libc-version.h>
#include <malloc.h>
#include <unistd.h>
#endif

namespace inflight {

namespace {

RecyclingBlockSource &kept_blocks()
{
    static auto *source = new RecyclingBlockSource(kKeptBlocksCapBytes); // never destroyed: vectors outlive statics
    return *source;
}

#if defined(__linux__) && defined(__GLIBC__)
// An older glibc ignores the tunable: starting again would gain nothing.
bool glibc_has_hugetlb_tunable()
{
    const std::string v = gnu_get_libc_version();
    const auto dot = v.find('.');
    if (dot == std::string::npos)
        return false;
    const int major = std::atoi(v.c_str());
    const int minor = std::atoi(v.c_str() + dot + 1);
    return major > 2 || (major == 2 && minor >= 35);
}

// "[never]": no transparent huge page, advised or not.
bool huge_pages_available()
{
    std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string mode;
    return std::getline(in, mode) && mode.find("[never]") == std::string::npos;
}

void start_again_with_huge_page_heap(int argc, char **argv)
{
    const char *set = std::getenv("GLIBC_TUNABLES");
    std::string tunables = set ? set : "";
    if (tunables.find("glibc.malloc.hugetlb") != std::string::npos)
        return; // the user's own choice, or this process after the exec below
    if (argc < 1 || !argv || !argv[0] || !glibc_has_hugetlb_tunable() || !huge_pages_available())
        return;
    tunables += tunables.empty() ? "glibc.malloc.hugetlb=1" : ":glibc.malloc.hugetlb=1";
    if (setenv("GLIBC_TUNABLES", tunables.c_str(), 1) != 0)
        return;
    // By its real path: exec'd through /proc/self/exe the process would be named "exe".
    char self[4096];
    const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0 || static_cast<std::size_t>(n) >= sizeof self - 1)
        return;
    self[n] = '\0';
    execv(self, argv);
    // Failed (no /proc, say): this process goes on without huge pages, which costs speed only.
}
#endif

} // namespace

void configure_process_heap(int argc, char **argv)
{
#if defined(__linux__) && defined(__GLIBC__)
    mallopt(M_ARENA_MAX, 1);
    mallopt(M_MMAP_THRESHOLD, static_cast<int>(kMmapThresholdBytes));
    start_again_with_huge_page_heap(argc, argv);
#else
    (void)argc;
    (void)argv;
#endif
    install_large_block_source(kept_blocks());
}

void trim_idle_heap()
{
    kept_blocks().release_kept();
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

} // namespace inflight
