// SPDX-License-Identifier: GPL-3.0-or-later
// The 2007 Szeredi collector: candidates, decrement, restore walk, hitlist. Runs in the caller
// (classic, up to 6.8) or as queued work (async, 6.9); Kernel::unix_gc() makes that difference.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "inflight/collector.hpp"
#include "inflight/kernel.hpp"

namespace inflight {

class ClassicCollector final : public Collector {
public:
    using Collector::Collector;
    GcEra era() const override { return k_.era(); }
    std::unique_ptr<Collector> clone_for(Kernel &k) const override
    {
        auto c = std::make_unique<ClassicCollector>(k);
        c->memo_valid_ = memo_valid_;
        c->memo_version_ = memo_version_;
        c->memo_size_ = memo_size_;
        c->warned_leftovers_ = warned_leftovers_;
        c->hung_ = hung_;
        return c;
    }
    Proc attach(ScmFpList &fpl) override;
    Proc enqueued(SkBuff &, UnixSock &) override { co_return; }
    Proc dequeued(SkBuff &) override { co_return; }
    Proc detach(ScmFpList &fpl) override;
    Proc accepted(UnixSock &) override { co_return; }
    Proc collect() override;
    long inflight_of(const UnixSock &u) const override { return u.inflight; }
    bool hung() const override { return hung_; }

private:
    enum class Func : unsigned char { dec_inflight, inc_inflight, inc_inflight_move_tail };
    Proc unix_inflight(User &user, File &f);
    Proc unix_notinflight(User &user, File &f);
    Proc scan_children(UnixSock &x, Func func, bool to_hitlist);
    Proc scan_inflight(UnixSock &x, UnixSock &queue, Func func, bool to_hitlist);
    Proc apply(Func func, UnixSock &child);
    Proc restore_not_cycle();
    Proc drop_leftover_oob_skbs();
    void hang(const UnixSock &stuck, std::string_view cve, std::string why);

    // The last selection found no candidate and these were its inputs: while nothing changes,
    // the next selection walks the same list to the same answer.
    bool memo_valid_ = false;
    std::uint64_t memo_version_ = 0;
    std::size_t memo_size_ = 0;
    bool warned_leftovers_ = false; // 6.9's WARN_ON_ONCE about candidates left after the purge
    // A loop of the 6.8-rc OOB fixes never ended (CVE-2024-26780, CVE-2024-26750): the kernel's
    // collecting task spins for ever with gc_in_progress set, so no collection runs again.
    bool hung_ = false;
    // This collection's decrement pass: how many embryos scan_children() found on each
    // listening candidate (by socket id), to catch a restore pass that finds others.
    std::map<std::uint32_t, std::size_t> embryos_decremented_;
};

} // namespace inflight
