// SPDX-License-Identifier: GPL-3.0-or-later
// Run by test_huge_page_heap: starts itself again as the app and the CLI do, then prints what
// the new process sees (its arguments, its name, the tunables), one per line.
#include "inflight/huge_page_heap.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

int main(int argc, char **argv)
{
    inflight::use_huge_page_heap(argv);
    std::string args;
    for (int i = 1; i < argc; ++i)
        args += (i > 1 ? " " : "") + std::string(argv[i]);
    std::string comm;
    std::ifstream in("/proc/self/comm");
    std::getline(in, comm);
    const char *tunables = std::getenv("GLIBC_TUNABLES");
    std::printf("args=%s\ncomm=%s\ntunables=%s\n", args.c_str(), comm.c_str(), tunables ? tunables : "");
    return 0;
}
