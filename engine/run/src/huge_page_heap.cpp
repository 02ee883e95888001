// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/huge_page_heap.hpp"

#include <cstddef>
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

#if defined(__linux__) && defined(__GLIBC__)
// Whether glibc knows the tunable: 2.35 and later. An older one ignores it, and starting again
// would gain nothing.
bool glibc_has_hugetlb_tunable()
{
    int major = 0, minor = 0;
    const std::string v = gnu_get_libc_version();
    const auto dot = v.find('.');
    if (dot == std::string::npos)
        return false;
    major = std::atoi(v.c_str());
    minor = std::atoi(v.c_str() + dot + 1);
    return major > 2 || (major == 2 && minor >= 35);
}

// "[never]": the system gives no transparent huge page, advised or not.
bool huge_pages_available()
{
    std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string mode;
    if (!std::getline(in, mode))
        return false;
    return mode.find("[never]") == std::string::npos;
}
#endif

} // namespace

void use_huge_page_heap(char **argv)
{
#if defined(__linux__) && defined(__GLIBC__)
    // One arena for every thread (before any thread exists; again after the exec below).
    mallopt(M_ARENA_MAX, 1);
    const char *set = std::getenv("GLIBC_TUNABLES");
    std::string tunables = set ? set : "";
    if (tunables.find("glibc.malloc.hugetlb") != std::string::npos)
        return; // chosen already: by the user, or by this very function before the exec
    if (!argv || !argv[0] || !glibc_has_hugetlb_tunable() || !huge_pages_available())
        return;
    tunables += tunables.empty() ? "glibc.malloc.hugetlb=1" : ":glibc.malloc.hugetlb=1";
    if (setenv("GLIBC_TUNABLES", tunables.c_str(), 1) != 0)
        return;
    // The binary itself, by its real path: exec'd through /proc/self/exe the process would be
    // named "exe" in ps, top and /proc/PID/comm.
    char self[4096];
    const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0 || static_cast<std::size_t>(n) >= sizeof self - 1)
        return;
    self[n] = '\0';
    execv(self, argv);
    // The exec failed (no /proc, say): go on as we are. Children started later see the tunable
    // and use huge pages; this process does not, which costs speed only.
#else
    (void)argv;
#endif
}

} // namespace inflight
