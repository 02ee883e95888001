// SPDX-License-Identifier: GPL-3.0-or-later
#include "kernels_command.hpp"

#include "inflight/kernel_profile.hpp"
#include "inflight/utf8.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

using namespace inflight;

namespace inflight_cli {
namespace {

std::string version_text(KernelVersion v)
{
    return std::to_string(v.major) + "." + std::to_string(v.minor) + (v.patch ? "." + std::to_string(v.patch) : "");
}

// In the order they landed, so a profile reads as its kernel's history.
std::vector<const KernelChangeInfo *> changes_by_release()
{
    std::vector<const KernelChangeInfo *> out;
    for (const KernelChangeInfo &c : kernel_change_table())
        out.push_back(&c);
    std::stable_sort(out.begin(), out.end(),
                     [](const KernelChangeInfo *a, const KernelChangeInfo *b) { return a->since < b->since; });
    return out;
}

nlohmann::json profiles_json()
{
    nlohmann::json all = nlohmann::json::array();
    for (const KernelProfile &p : kernel_profiles()) {
        nlohmann::json fixes = nlohmann::json::array();
        for (const KernelChangeInfo *c : changes_by_release()) {
            nlohmann::json f{{"name", c->name},
                             {"commit", c->commit},
                             {"subject", c->subject},
                             {"version", version_text(c->since)},
                             {"summary", c->summary},
                             {"on", p.changes.has(c->id)},
                             {"applies", kernel_change_applies(p.era, c->id)},
                             {"modelled", c->not_modelled.empty()}};
            if (!c->not_modelled.empty())
                f["not_modelled"] = c->not_modelled;
            fixes.push_back(std::move(f));
        }
        all.push_back({{"kernel", p.name},
                       {"title", p.title},
                       {"era", era_name(p.era)},
                       {"default_of_era", p.default_of_era},
                       {"checked", p.checked},
                       {"fixes", std::move(fixes)}});
    }
    return all;
}

// printf's columns, into std::cout (main() checks that everything printed got out).
[[gnu::format(printf, 1, 2)]] void print(const char *format, ...)
{
    std::va_list args;
    va_start(args, format);
    std::va_list again;
    va_copy(again, args);
    const int n = std::vsnprintf(nullptr, 0, format, args);
    va_end(args);
    std::string line(static_cast<std::size_t>(std::max(n, 0)) + 1, '\0');
    std::vsnprintf(line.data(), line.size(), format, again);
    va_end(again);
    line.pop_back();
    std::cout << line;
}

void print_text()
{
    print("Kernel profiles (set kernel VERSION, run --kernel VERSION); * = what `set gc ERA` means\n\n");
    for (const KernelProfile &p : kernel_profiles()) {
        print("%s%-5s %-8s %.*s\n", p.default_of_era ? "*" : " ", std::string(p.name).c_str(),
              std::string(era_name(p.era)).c_str(), static_cast<int>(p.title.size()), p.title.data());
        std::string on;
        for (const KernelChangeInfo *c : changes_by_release())
            if (p.changes.has(c->id) && !c->era)
                on += (on.empty() ? "" : " ") + std::string(c->name);
        print("       has: %s\n", on.empty() ? "(none of the named changes)" : on.c_str());
        print("       checked against: %s\n",
              p.checked.empty() ? "no real kernel yet" : std::string(p.checked).c_str());
    }
    print("\nNamed changes (set fix NAME on|off):\n\n");
    for (const KernelChangeInfo *c : changes_by_release()) {
        const std::string commit = c->commit.empty() ? std::string("(id not found)") : std::string(c->commit);
        print("  %-19s %-12s %-5s %.*s\n", std::string(c->name).c_str(), commit.c_str(), version_text(c->since).c_str(),
              static_cast<int>(c->subject.size()), c->subject.data());
        print("  %-19s %.*s\n", "", static_cast<int>(c->summary.size()), c->summary.data());
        if (c->era)
            print("  %-19s (a collector: set gc / set kernel picks it)\n", "");
        else if (!c->not_modelled.empty())
            print("  %-19s not modelled: %.*s\n", "", static_cast<int>(c->not_modelled.size()), c->not_modelled.data());
    }
}

} // namespace

int kernels_main(int argc, char **argv)
{
    bool json = false;
    for (int i = 2; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--json") {
            json = true;
        } else if (a == "-h" || a == "--help") {
            std::cout << "usage: inflight-cli kernels [--json]\n";
            return 0;
        } else {
            std::fprintf(stderr, "inflight-cli kernels: unknown option '%s'\nusage: inflight-cli kernels [--json]\n",
                         inflight::printable(a).c_str());
            return 2;
        }
    }
    if (json)
        std::cout << profiles_json().dump(2) << "\n";
    else
        print_text();
    return 0;
}

} // namespace inflight_cli
