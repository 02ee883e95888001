// SPDX-License-Identifier: GPL-3.0-or-later
// Run by test_process_heap: calls configure_process_heap() first thing, as the programs do
// (unless the first argument is --unconfigured), then prints what it can observe of its heap,
// one key=value a line: how often main() started (across the exec), its arguments and name,
// GLIBC_TUNABLES, the malloc arenas its threads ended up in, whether a block below glibc's
// sliding mmap threshold is mapped after a larger one was freed, the large block source, and
// what that source keeps before and after trim_idle_heap().
#include "inflight/block_source.hpp"
#include "inflight/huge_pages.hpp"
#include "inflight/process_heap.hpp"
#include "inflight/recycling_block_source.hpp"

#include <barrier>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <malloc.h>

namespace {

// Each thread allocates while the others hold theirs, so none can take another's arena.
int arenas_after_threads()
{
    constexpr int kThreads = 4;
    std::barrier sync(kThreads);
    std::vector<std::thread> threads;
    for (int i = 0; i < kThreads; ++i)
        threads.emplace_back([&sync] {
            void *volatile p = std::malloc(64);
            sync.arrive_and_wait();
            std::free(p);
        });
    for (std::thread &t : threads)
        t.join();
    char *xml = nullptr;
    std::size_t size = 0;
    FILE *out = open_memstream(&xml, &size);
    if (!out)
        return -1;
    malloc_info(0, out);
    std::fclose(out);
    int heaps = 0;
    for (const char *at = xml; (at = std::strstr(at, "<heap nr=")); ++at)
        ++heaps;
    std::free(xml);
    return heaps;
}

// glibc raises a sliding threshold to the size of a mapped block when it is freed; a fixed one
// stays, so the next block above it is mapped too. Sizes above what the heap's top holds (glibc
// grows it in huge pages under glibc.malloc.hugetlb=1), else the block is cut from it.
int maps_after_larger_free()
{
    void *volatile big = std::malloc(std::size_t(8) << 20);
    std::memset(big, 1, 16);
    std::free(big);
    const std::size_t before = mallinfo2().hblks;
    void *volatile mid = std::malloc(std::size_t(4) << 20);
    std::memset(mid, 1, 16);
    const std::size_t after = mallinfo2().hblks;
    std::free(mid);
    return after > before ? 1 : 0;
}

} // namespace

int main(int argc, char **argv)
{
    const char *starts = std::getenv("INFLIGHT_PROBE_STARTS");
    const std::string count = std::to_string((starts ? std::atoi(starts) : 0) + 1);
    setenv("INFLIGHT_PROBE_STARTS", count.c_str(), 1); // travels across the exec
    const bool configured = !(argc > 1 && std::strcmp(argv[1], "--unconfigured") == 0);
    if (configured)
        inflight::configure_process_heap(argc, argv);
    std::string args;
    for (int i = 1; i < argc; ++i)
        args += (i > 1 ? " " : "") + std::string(argv[i]);
    std::string comm;
    std::ifstream in("/proc/self/comm");
    std::getline(in, comm);
    const char *tunables = std::getenv("GLIBC_TUNABLES");
    std::printf("starts=%s\nargs=%s\ncomm=%s\ntunables=%s\n", count.c_str(), args.c_str(), comm.c_str(),
                tunables ? tunables : "");
    std::printf("arenas=%d\n", arenas_after_threads());
    std::printf("maps_after_larger_free=%d\n", maps_after_larger_free());
    inflight::BlockSource &source = inflight::large_block_source();
    auto *recycling = dynamic_cast<inflight::RecyclingBlockSource *>(&source);
    std::printf("block_source=%s\n", recycling ? "recycling" : "plain");
    if (recycling) {
        source.give(source.take(inflight::kHugePageBytes), inflight::kHugePageBytes);
        std::printf("kept_after_give=%zu\n", recycling->kept_bytes());
        inflight::trim_idle_heap();
        std::printf("kept_after_trim=%zu\n", recycling->kept_bytes());
    }
    return 0;
}
