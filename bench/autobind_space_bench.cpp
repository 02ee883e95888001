// SPDX-License-Identifier: GPL-3.0-or-later
// inflight-autobind-bench: fills all 2^20 autobind names of one socket type with random-start
// autobinds (the merged unix_autobind(), spec 6) on the AbstractNamespace alone, then makes one
// more autobind, which gives up with ENOSPC. Prints plain "key value" lines: fill time, probes,
// chain compares, peak RSS (VmHWM). Not a test.
//
//   inflight-autobind-bench [--seed N] [--type stream|dgram|seqpacket] [--no-compares]
//                           [--mode random|random-v1|sequential]
//
// --no-compares skips runs of taken names with a bitmap scan and does not count the chain
// entries they compare (the kernel model's per-probe cost needs them; the fill does not).
#include "inflight/abstract_namespace.hpp"
#include "inflight/process_heap.hpp"
#include "proc_status.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <string>

using namespace inflight;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

} // namespace

int main(int argc, char **argv)
{
    inflight::configure_process_heap(argc, argv); // the heap the app and the CLI run with
    std::uint64_t seed = 1;
    SockType type = SockType::stream;
    AutobindMode mode = AutobindMode::random;
    bool compares = true;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--seed" && i + 1 < argc) {
            seed = std::strtoull(argv[++i], nullptr, 10);
        } else if (a == "--type" && i + 1 < argc) {
            const std::string t = argv[++i];
            type = t == "dgram" ? SockType::dgram : t == "seqpacket" ? SockType::seqpacket : SockType::stream;
        } else if (a == "--mode" && i + 1 < argc) {
            const std::string m = argv[++i];
            mode = m == "sequential"  ? AutobindMode::sequential
                   : m == "random-v1" ? AutobindMode::random_v1
                                      : AutobindMode::random;
        } else if (a == "--no-compares") {
            compares = false;
        } else {
            std::fprintf(stderr,
                         "usage: %s [--seed N] [--type stream|dgram|seqpacket] [--no-compares] "
                         "[--mode random|random-v1|sequential]\n",
                         argv[0]);
            return 2;
        }
    }
    const char *mode_name = mode == AutobindMode::sequential  ? "sequential"
                            : mode == AutobindMode::random_v1 ? "random-v1"
                                                              : "random";

    const long rss_before = bench::status_kib("VmHWM");
    AbstractNamespace ns;
    std::mt19937_64 rng(seed);
    std::uint32_t most = 0, failed = 0;
    const auto t0 = Clock::now();
    for (std::uint32_t i = 0; i < kAutobindSpace; ++i) {
        auto it = ns.autobind(type, mode, rng);
        if (it.run(i, compares) != AutobindStop::bound)
            ++failed; // random-v1 may fail early: its give-up test fires at initnum
        most = std::max(most, it.probes());
    }
    const double fill_s = seconds_since(t0);
    const std::uint64_t fill_probes = ns.stats().probes;
    const std::uint64_t fill_compared = ns.stats().compared;

    const auto t1 = Clock::now();
    auto last = ns.autobind(type, mode, rng);
    const AutobindStop stop = last.run(kNoSock, compares);
    const double full_s = seconds_since(t1);

    std::uint32_t used = 0;
    for (std::uint32_t b = kAbstractBucketBase; b < kAbstractBucketBase + kAbstractBuckets; ++b)
        used += ns.chain_length(b) != 0;
    std::uint32_t longest_bucket = 0;
    const std::uint32_t longest = ns.longest_chain(&longest_bucket);

    std::printf("names %u\n", kAutobindSpace);
    std::printf("type %s\n", type == SockType::stream ? "stream" : type == SockType::dgram ? "dgram" : "seqpacket");
    std::printf("mode %s\n", mode_name);
    std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
    std::printf("count_compares %d\n", compares ? 1 : 0);
    std::printf("bound %u\n", ns.autobind_names_taken(type));
    std::printf("failed %u\n", failed);
    std::printf("fill_s %.3f\n", fill_s);
    std::printf("probes %llu\n", static_cast<unsigned long long>(fill_probes));
    std::printf("probes_per_bind %.1f\n", static_cast<double>(fill_probes) / kAutobindSpace);
    std::printf("most_probes_one_bind %u\n", most);
    std::printf("compared %llu\n", static_cast<unsigned long long>(fill_compared));
    std::printf("ns_per_probe %.2f\n", fill_s * 1e9 / static_cast<double>(fill_probes));
    std::printf("next_autobind %s\n", std::string(autobind_stop_name(stop)).c_str());
    std::printf("next_autobind_probes %u\n", last.probes());
    std::printf("next_autobind_s %.4f\n", full_s);
    std::printf("buckets_used %u\n", used);
    std::printf("longest_chain %u\n", longest);
    std::printf("longest_chain_bucket %u\n", longest_bucket);
    std::printf("rss_before_kib %ld\n", rss_before);
    std::printf("peak_rss_kib %ld\n", bench::status_kib("VmHWM"));
    return 0;
}
