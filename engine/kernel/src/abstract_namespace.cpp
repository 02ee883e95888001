// SPDX-License-Identifier: GPL-3.0-or-later
// The abstract socket name space of one network namespace and unix_autobind() (spec 6).
// See abstract_namespace.hpp for what is modelled and how it is stored.
#include "inflight/abstract_namespace.hpp"

#include "inflight/huge_pages.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>

#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#endif

namespace inflight {

namespace {

constexpr char kHexDigits[] = "0123456789abcdef";

std::atomic<std::uint64_t> g_next_instance{1};

int type_index(SockType t) { return static_cast<int>(t); }

// The 16-bit one's-complement fold with end-around carry, then the complement: csum_fold().
std::uint16_t fold_complement(std::uint32_t sum)
{
    sum = (sum & 0xFFFFu) + (sum >> 16);
    sum = (sum & 0xFFFFu) + (sum >> 16);
    return static_cast<std::uint16_t>(~sum & 0xFFFFu);
}

// unix_abstract_hash() after the checksum: mix the high byte in, then the socket type.
std::uint32_t bucket_of_fold(std::uint32_t h, int sk_type)
{
    h ^= h >> 8;
    h ^= static_cast<std::uint32_t>(sk_type);
    return kAbstractBucketBase + (h & 255u);
}

} // namespace

// ---- names and hashing ---------------------------------------------------------------------------

int sk_type_value(SockType t)
{
    switch (t) {
    case SockType::stream: return 1;    // SOCK_STREAM
    case SockType::dgram: return 2;     // SOCK_DGRAM
    case SockType::seqpacket: return 5; // SOCK_SEQPACKET
    }
    return 1;
}

std::string autobind_name(std::uint32_t value)
{
    value &= kAutobindMask;
    std::string s(5, '0');
    for (int i = 4; i >= 0; --i) {
        s[static_cast<std::size_t>(i)] = kHexDigits[value & 15u];
        value >>= 4;
    }
    return s;
}

std::optional<std::uint32_t> autobind_value_of(std::string_view name)
{
    if (name.size() != 5)
        return std::nullopt;
    std::uint32_t v = 0;
    for (char c : name) {
        std::uint32_t d;
        if (c >= '0' && c <= '9')
            d = static_cast<std::uint32_t>(c - '0');
        else if (c >= 'a' && c <= 'f')
            d = static_cast<std::uint32_t>(c - 'a' + 10);
        else
            return std::nullopt;
        v = (v << 4) | d;
    }
    return v;
}

std::vector<std::uint8_t> abstract_sockaddr(std::string_view name)
{
    std::vector<std::uint8_t> b;
    b.reserve(3 + name.size());
    b.push_back(1); // AF_UNIX, little-endian u16
    b.push_back(0);
    b.push_back(0); // sun_path[0] = 0: abstract
    for (char c : name)
        b.push_back(static_cast<std::uint8_t>(c));
    return b;
}

std::uint16_t csum_fold_partial(std::span<const std::uint8_t> bytes)
{
    // csum_partial() on x86 adds the buffer as little-endian words (it uses wider adds with
    // carry, which give the same folded result); an odd trailing byte counts as a low byte.
    std::uint64_t sum = 0;
    std::size_t i = 0;
    for (; i + 1 < bytes.size(); i += 2)
        sum += static_cast<std::uint32_t>(bytes[i]) | (static_cast<std::uint32_t>(bytes[i + 1]) << 8);
    if (bytes.size() & 1)
        sum += bytes[i];
    while (sum >> 32)
        sum = (sum & 0xFFFFFFFFu) + (sum >> 32);
    return fold_complement(static_cast<std::uint32_t>(sum));
}

std::uint32_t abstract_hash(std::span<const std::uint8_t> sockaddr, int sk_type)
{
    return bucket_of_fold(csum_fold_partial(sockaddr), sk_type);
}

std::uint32_t abstract_name_bucket(std::string_view name, SockType type)
{
    const auto addr = abstract_sockaddr(name);
    return abstract_hash(addr, sk_type_value(type));
}

namespace {

// The checksum of an autobind name, split so that a probe costs two table reads: over the 8
// bytes 01 00 | 00 c0 | c1 c2 | c3 c4 (c0..c4 the hex digits of the value, most significant
// first) the little-endian words are 0x0001, c0 << 8, c1 | c2 << 8 and c3 | c4 << 8. The top
// two digits (value >> 12) give (c0 << 8) + c1, the low three (value & 0xFFF) give
// (c2 << 8) + c3 + (c4 << 8).
constexpr std::uint32_t hex_char(std::uint32_t d) { return d < 10 ? 0x30 + d : 0x61 + d - 10; }

struct AutobindSumTables {
    std::array<std::uint32_t, 256> hi{};
    std::array<std::uint32_t, 4096> lo{};
    constexpr AutobindSumTables()
    {
        for (std::uint32_t i = 0; i < 256; ++i)
            hi[i] = (hex_char(i >> 4) << 8) + hex_char(i & 15);
        for (std::uint32_t i = 0; i < 4096; ++i)
            lo[i] = (hex_char(i >> 8) << 8) + hex_char((i >> 4) & 15) + (hex_char(i & 15) << 8);
    }
};
constexpr AutobindSumTables kSum;

inline std::uint32_t autobind_bucket_fast(std::uint32_t value, int sk_type)
{
    const std::uint32_t sum = 0x0001u + kSum.hi[(value >> 12) & 255u] + kSum.lo[value & 0xFFFu];
    return bucket_of_fold(fold_complement(sum), sk_type);
}

// The low byte of h ^ (h >> 8) for every autobind value (1 MiB, built on first use): the
// bucket of value v for sk_type t is 256 + (table[v] ^ t). Bulk probing reads it.
const std::uint8_t *autobind_mix_table()
{
    static const std::vector<std::uint8_t> table = [] {
        std::vector<std::uint8_t> t(kAutobindSpace);
        for (std::uint32_t v = 0; v < kAutobindSpace; ++v)
            t[v] = static_cast<std::uint8_t>(autobind_bucket_fast(v, 0) - kAbstractBucketBase);
        return t;
    }();
    return table.data();
}

// compares_of_run() adds long runs a block of kIndexBlock values at a time.
constexpr std::uint32_t kIndexBlockBits = 10;
constexpr std::uint32_t kIndexBlock = 1u << kIndexBlockBits;              // 1024 values
constexpr std::uint32_t kIndexBlocks = kAutobindSpace >> kIndexBlockBits; // 1024 blocks

// For block k (0..1024) and mix byte m: how many values below k * kIndexBlock have
// autobind_mix_table()[v] == m. (1025 x 256 counts, 1 MiB, built on first use.)
const std::uint32_t *mix_block_prefix()
{
    static const std::vector<std::uint32_t> table = [] {
        const std::uint8_t *mix = autobind_mix_table();
        std::vector<std::uint32_t> t(std::size_t{kIndexBlocks + 1} * 256, 0);
        for (std::uint32_t k = 0; k < kIndexBlocks; ++k) {
            std::uint32_t *next = &t[std::size_t{k + 1} * 256];
            std::copy_n(&t[std::size_t{k} * 256], 256, next);
            for (std::uint32_t v = k * kIndexBlock; v < (k + 1) * kIndexBlock; ++v)
                ++next[mix[v]];
        }
        return t;
    }();
    return table.data();
}

} // namespace

std::uint32_t autobind_bucket(std::uint32_t value, SockType type)
{
    return autobind_bucket_fast(value & kAutobindMask, sk_type_value(type));
}

std::string_view autobind_stop_name(AutobindStop s)
{
    switch (s) {
    case AutobindStop::running: return "running";
    case AutobindStop::bound: return "bound";
    case AutobindStop::enospc: return "ENOSPC";
    case AutobindStop::endless: return "endless";
    }
    return "?";
}

// ---- the probe iterator ------------------------------------------------------------------------------

AutobindIterator::AutobindIterator(AbstractNamespace &ns, SockType type, AutobindMode mode, std::uint32_t random32)
    : ns_(&ns), type_(type), mode_(mode)
{
    switch (mode) {
    case AutobindMode::sequential: start_ = ns.ordernum_; break;
    case AutobindMode::random_v1:
        // initnum = ordernum = prandom_u32(): all 32 bits.
        start_ = ordernum_ = initnum_ = random32;
        break;
    case AutobindMode::random:
        // ordernum = get_random_u32(); lastnum = ordernum & 0xFFFFF.
        start_ = ordernum_ = random32;
        initnum_ = random32 & kAutobindMask;
        break;
    }
}

AutobindIterator::AutobindIterator(AbstractNamespace &ns, SockType type, AutobindMode mode, std::mt19937_64 &rng)
    : AutobindIterator(ns, type, mode, static_cast<std::uint32_t>(rng()))
{ }

std::uint32_t AutobindIterator::format()
{
    if (phase_ != Phase::ready)
        return value_;
    if (mode_ == AutobindMode::sequential) {
        value_ = ns_->ordernum_;
    } else {
        ordernum_ = (ordernum_ + 1) & kAutobindMask;
        value_ = ordernum_;
    }
    bucket_ = autobind_bucket(value_, type_);
    // lookup() reads the value's slot after the caller has taken the bucket locks.
    if (const auto &s = ns_->slots_[static_cast<std::size_t>(type_index(type_))]; !s.empty())
        __builtin_prefetch(&s[value_]);
    phase_ = Phase::formatted;
    return value_;
}

void AutobindIterator::locked_advance()
{
    if (phase_ != Phase::formatted)
        return;
    if (mode_ == AutobindMode::sequential)
        ns_->ordernum_ = (ns_->ordernum_ + 1) & kAutobindMask;
    phase_ = Phase::advanced;
}

const ProbeResult &AutobindIterator::lookup()
{
    if (phase_ != Phase::advanced)
        return last_;
    ns_->lookup_value(value_, type_, bucket_, last_);
    ++probes_;
    compared_ += last_.compared;
    ns_->stats_.probes += 1;
    ns_->stats_.compared += last_.compared;
    if (probes_ == 1)
        note_first_probe();
    AutobindTrace &t = ns_->trace_;
    t.active = true;
    t.cursor = value_;
    t.probes = probes_;
    phase_ = last_.taken ? Phase::taken : Phase::free;
    return last_;
}

std::uint32_t AutobindIterator::skip_taken(std::uint32_t limit, bool count_compares)
{
    if (phase_ != Phase::ready || limit == 0)
        return 0;
    // The next value probe() would try, and how many probes are left before the give-up test
    // holds (the probe that gives up included).
    std::uint32_t cur, left;
    bool endless_at_end = false;
    switch (mode_) {
    case AutobindMode::sequential:
        cur = ns_->ordernum_;
        left = kAutobindSpace - retries_;
        break;
    case AutobindMode::random_v1:
        cur = (ordernum_ + 1) & kAutobindMask;
        if (initnum_ > kAutobindMask) {
            left = kAutobindSpace - probes_;
            endless_at_end = true;
        } else {
            left = ((initnum_ - cur) & kAutobindMask) + 1;
        }
        break;
    case AutobindMode::random:
    default:
        cur = (ordernum_ + 1) & kAutobindMask;
        left = ((initnum_ - cur) & kAutobindMask) + 1;
        break;
    }
    const std::uint32_t n = std::min(limit, left);
    const std::uint32_t k = ns_->first_free(type_, cur, n);
    if (k == 0)
        return 0;
    const std::uint64_t cmp = count_compares ? ns_->compares_of_run(type_, cur, k) : 0;
    const std::uint32_t last = (cur + k - 1) & kAutobindMask;
    if (mode_ == AutobindMode::sequential) {
        ns_->ordernum_ = (cur + k) & kAutobindMask;
        retries_ += k;
    } else {
        ordernum_ = last;
    }
    value_ = last;
    bucket_ = autobind_bucket(last, type_);
    ns_->lookup_value(last, type_, bucket_, last_);
    if (probes_ == 0) {
        value_ = cur;
        note_first_probe();
        value_ = last;
    }
    probes_ += k;
    compared_ += cmp;
    ns_->stats_.probes += k;
    ns_->stats_.compared += cmp;
    AutobindTrace &t = ns_->trace_;
    t.active = true;
    t.cursor = last;
    t.probes = probes_;
    if (k == left) {
        // The last of them was the give-up probe.
        if (endless_at_end) {
            diagnose_endless();
            finish(AutobindStop::endless);
        } else {
            finish(AutobindStop::enospc);
        }
    }
    return k;
}

void AutobindIterator::note_first_probe()
{
    AutobindTrace &t = ns_->trace_;
    t = AutobindTrace{};
    t.any = true;
    t.type = type_;
    t.mode = mode_;
    t.first = value_;
}

void AutobindIterator::diagnose_endless()
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "initnum 0x%x", initnum_);
    EndlessLoop d;
    d.initnum = initnum_;
    d.probes = probes_;
    d.reason = std::string(buf) + " \u2265 2^20 but ordernum is masked to 20 bits, so ordernum == initnum never "
                                  "holds; every name is taken, so the kernel loops forever";
    endless_ = std::move(d);
}

Errno AutobindIterator::commit(std::uint32_t sock)
{
    if (phase_ != Phase::free)
        return Errno::inval;
    if (!ns_->insert_value(value_, type_, sock)) {
        // Taken between lookup() and commit(): only a model that dropped the lock can see this.
        phase_ = Phase::taken;
        return Errno::addrinuse;
    }
    ns_->trace_.sock = sock;
    finish(AutobindStop::bound);
    return Errno::none;
}

AutobindStop AutobindIterator::after_taken()
{
    if (phase_ != Phase::taken)
        return stop_;
    switch (mode_) {
    case AutobindMode::sequential:
        // if (retries++ == 0xFFFFF) -> -ENOSPC: the 2^20th collision gives up.
        if (retries_++ == kAutobindMask) {
            finish(AutobindStop::enospc);
            return stop_;
        }
        break;
    case AutobindMode::random_v1:
        if (ordernum_ == initnum_) {
            finish(AutobindStop::enospc);
            return stop_;
        }
        // Every probe so far collided (a free one ends the call). After 2^20 of them every value
        // was tried once; with initnum >= 2^20 the test above can never hold, so the kernel's
        // loop would go on for ever (Eric Dumazet's review of the v1 patch).
        if (initnum_ > kAutobindMask && probes_ >= kAutobindSpace) {
            diagnose_endless();
            finish(AutobindStop::endless);
            return stop_;
        }
        break;
    case AutobindMode::random:
        // if (ordernum == lastnum) -> -ENOSPC: lastnum itself was the 2^20th name tried.
        if (ordernum_ == initnum_) {
            finish(AutobindStop::enospc);
            return stop_;
        }
        break;
    }
    phase_ = Phase::ready;
    return stop_;
}

const ProbeResult &AutobindIterator::probe()
{
    if (finished())
        return last_;
    format();
    locked_advance();
    if (lookup().taken)
        after_taken();
    return last_;
}

AutobindStop AutobindIterator::run(std::uint32_t sock, bool count_compares)
{
    while (!finished()) {
        skip_taken(kAutobindSpace, count_compares);
        if (finished())
            break;
        if (!probe().taken && commit(sock) != Errno::none)
            after_taken();
    }
    return stop_;
}

void AutobindIterator::finish(AutobindStop s)
{
    stop_ = s;
    phase_ = Phase::done;
    AbstractStats &st = ns_->stats_;
    st.autobinds += 1;
    st.last_probes = probes_;
    if (s == AutobindStop::bound)
        st.autobind_bound += 1;
    else if (s == AutobindStop::enospc)
        st.enospc += 1;
    else if (s == AutobindStop::endless)
        st.endless += 1;
    ns_->trace_.active = false;
    ns_->trace_.stop = s;
}

// ---- the namespace ---------------------------------------------------------------------------------

AbstractNamespace::InstanceId::InstanceId() : id(g_next_instance.fetch_add(1)) { }
AbstractNamespace::InstanceId::InstanceId(const InstanceId &) : id(g_next_instance.fetch_add(1)) { }
AbstractNamespace::InstanceId &AbstractNamespace::InstanceId::operator=(const InstanceId &)
{
    id = g_next_instance.fetch_add(1);
    return *this;
}

AbstractNamespace::AbstractNamespace() = default;
AbstractNamespace::AbstractNamespace(const AbstractNamespace &other) = default;
AbstractNamespace &AbstractNamespace::operator=(const AbstractNamespace &other) = default;

AbstractNamespace::SlotArray::SlotArray(const SlotArray &other)
{
    if (other.empty())
        return;
    allocate();
    // Copy page by page, leaving the pages that are still all free untouched.
    constexpr std::size_t kPage = 4096 / sizeof(Slot);
    constexpr std::size_t kPages = kAutobindSpace / kPage;
    std::vector<bool> used(kPages);
    std::size_t n_used = 0;
    for (std::size_t page = 0; page < kPages; ++page) {
        const Slot *from = other.p_ + page * kPage;
        bool any = false;
        for (std::size_t i = 0; i < kPage && !any; ++i)
            any = from[i].held != 0 || from[i].index != 0;
        used[page] = any;
        n_used += any;
    }
    // A mostly full table is copied at every restore: on huge pages that is a few faults instead
    // of one per 4 KiB. A sparse one stays on small pages, where the free ones take no memory.
    if (n_used * 2 >= kPages)
        advise_huge_pages(p_, std::size_t{kAutobindSpace} * sizeof(Slot));
    for (std::size_t page = 0; page < kPages; ++page)
        if (used[page])
            std::memcpy(p_ + page * kPage, other.p_ + page * kPage, kPage * sizeof(Slot));
}

AbstractNamespace::SlotArray &AbstractNamespace::SlotArray::operator=(const SlotArray &other)
{
    if (this != &other) {
        SlotArray copy(other);
        std::swap(p_, copy.p_);
    }
    return *this;
}

// Straight from mmap() where there is one: calloc() hands out fresh zero pages only while its
// mmap threshold is below 8 MiB, and glibc raises that threshold as large blocks are freed.
AbstractNamespace::SlotArray::~SlotArray()
{
    if (!p_)
        return;
#if defined(__unix__) || defined(__APPLE__)
    munmap(p_, std::size_t{kAutobindSpace} * sizeof(Slot));
#else
    std::free(p_);
#endif
}

void AbstractNamespace::SlotArray::allocate()
{
    if (p_)
        return;
#if defined(__unix__) || defined(__APPLE__)
    void *p = mmap(nullptr, std::size_t{kAutobindSpace} * sizeof(Slot), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        throw std::bad_alloc();
    p_ = static_cast<Slot *>(p);
#else
    p_ = static_cast<Slot *>(std::calloc(kAutobindSpace, sizeof(Slot)));
    if (!p_)
        throw std::bad_alloc();
#endif
}

AbstractNamespace::SlotArray &AbstractNamespace::slots_for(SockType type)
{
    const auto t = static_cast<std::size_t>(type_index(type));
    if (slots_[t].empty()) {
        slots_[t].allocate();
        bits_[t].assign(kAutobindSpace / 64, 0);
        index_sums_[t].assign(kIndexBlocks, 0);
    }
    return slots_[t];
}

std::uint32_t AbstractNamespace::first_free(SockType type, std::uint32_t start, std::uint32_t n) const
{
    const auto &bits = bits_[static_cast<std::size_t>(type_index(type))];
    if (bits.empty())
        return 0;
    std::uint32_t off = 0;
    while (off < n) {
        // 2^20 is a multiple of 64, so a word never straddles the wrap.
        const std::uint32_t v = (start + off) & kAutobindMask;
        const std::uint32_t bit = v & 63u;
        std::uint64_t freebits = ~bits[v >> 6] >> bit;
        const std::uint32_t avail = std::min<std::uint32_t>(64 - bit, n - off);
        if (avail < 64)
            freebits &= (std::uint64_t{1} << avail) - 1;
        if (freebits)
            return off + static_cast<std::uint32_t>(__builtin_ctzll(freebits));
        off += avail;
    }
    return n;
}

std::uint64_t AbstractNamespace::compares_of_run(SockType type, std::uint32_t start, std::uint32_t n) const
{
    // Each value is taken, so each probe compares up to its entry: its position from the head.
    const auto t = static_cast<std::size_t>(type_index(type));
    const auto &s = slots_[t];
    if (s.empty() || n == 0)
        return 0;
    const auto skt = static_cast<std::uint8_t>(sk_type_value(type));
    const std::uint8_t *mix = autobind_mix_table();
    if (tombs_total_ != 0) {
        std::uint64_t sum = 0;
        for (std::uint32_t i = 0; i < n; ++i) {
            const std::uint32_t v = (start + i) & kAutobindMask;
            sum += position(buckets_[static_cast<std::uint8_t>(mix[v] ^ skt)], s[v].index);
        }
        return sum;
    }
    // No tombstones: a taken value's position is (its bucket's size) - (its index). The sum over
    // the run is (sum of the bucket sizes) - (sum of the indices). Over whole blocks of values
    // the first is sum over buckets of size x (the block range's values in that bucket), the
    // second the blocks' index sums (free values have index 0). A run's partial blocks at either
    // end are added value by value, or the whole block is added and the values outside the run
    // taken off, whichever walks fewer values. (Unsigned arithmetic: the parts taken off were
    // added before, so the totals never go below zero.)
    std::uint64_t sizes = 0, indices = 0;
    std::array<std::uint32_t, kAbstractBuckets> size; // by mix byte (bucket mix ^ skt)
    const bool table = n >= 512;
    if (table)
        for (std::uint32_t m = 0; m < kAbstractBuckets; ++m)
            size[m] = static_cast<std::uint32_t>(buckets_[m ^ skt].keys.size());
    const auto direct = [&](std::uint32_t lo, std::uint32_t hi, bool add) {
        std::uint64_t sz = 0, ix = 0;
        if (table) {
            for (std::uint32_t v = lo; v < hi; ++v) {
                sz += size[mix[v]];
                ix += s[v].index;
            }
        } else {
            for (std::uint32_t v = lo; v < hi; ++v) {
                sz += buckets_[static_cast<std::uint8_t>(mix[v] ^ skt)].keys.size();
                ix += s[v].index;
            }
        }
        if (add) {
            sizes += sz;
            indices += ix;
        } else {
            sizes -= sz;
            indices -= ix;
        }
    };
    const auto range = [&](std::uint32_t lo, std::uint32_t hi) { // within 0 .. 2^20
        if (hi - lo < kIndexBlock) {
            direct(lo, hi, true);
            return;
        }
        std::uint32_t kb = lo >> kIndexBlockBits;                  // first block counted whole
        const std::uint32_t before = lo - (kb << kIndexBlockBits); // its values below lo
        if (before > kIndexBlock / 2) {
            ++kb;
            direct(lo, kb << kIndexBlockBits, true);
        } else if (before) {
            direct(kb << kIndexBlockBits, lo, false);
        }
        std::uint32_t ke = (hi + kIndexBlock - 1) >> kIndexBlockBits; // past the last one
        const std::uint32_t after = (ke << kIndexBlockBits) - hi;     // its values from hi on
        if (after > kIndexBlock / 2) {
            --ke;
            direct(ke << kIndexBlockBits, hi, true);
        } else if (after) {
            direct(hi, ke << kIndexBlockBits, false);
        }
        if (ke <= kb)
            return;
        const std::uint32_t *lo_count = mix_block_prefix() + std::size_t{kb} * 256;
        const std::uint32_t *hi_count = mix_block_prefix() + std::size_t{ke} * 256;
        for (std::uint32_t m = 0; m < 256; ++m)
            sizes += std::uint64_t{hi_count[m] - lo_count[m]} * size[m];
        const auto &sums = index_sums_[t];
        for (std::uint32_t k = kb; k < ke; ++k)
            indices += sums[k];
    };
    const std::uint32_t first = start & kAutobindMask;
    if (std::uint64_t{first} + n <= kAutobindSpace) {
        range(first, first + n);
    } else {
        range(first, kAutobindSpace);
        range(0, static_cast<std::uint32_t>(std::uint64_t{first} + n - kAutobindSpace));
    }
    return sizes - indices;
}

std::uint32_t AbstractNamespace::position(const Bucket &b, std::uint32_t index) const
{
    // Entries after `index` are newer, i.e. nearer the head; tombstones among them don't count.
    const auto after = static_cast<std::uint32_t>(b.keys.size()) - index;
    if (b.tombs.empty())
        return after;
    const auto dead =
        static_cast<std::uint32_t>(b.tombs.end() - std::upper_bound(b.tombs.begin(), b.tombs.end(), index));
    return after - dead;
}

std::uint32_t AbstractNamespace::add_entry(std::uint32_t bucket, std::uint32_t key)
{
    Bucket &b = bucket_ref(bucket);
    b.keys.push_back(key); // hlist_add_head: the back is the head
    return static_cast<std::uint32_t>(b.keys.size() - 1);
}

std::uint32_t *AbstractNamespace::index_of_key(std::uint32_t key)
{
    if (key & kOtherBit)
        return &others_[key & ~kOtherBit].index;
    const auto t = static_cast<std::size_t>(key >> 20);
    return &slots_[t][key & kAutobindMask].index;
}

void AbstractNamespace::remove_entry(std::uint32_t bucket, std::uint32_t index)
{
    Bucket &b = bucket_ref(bucket);
    if (index + 1 == b.keys.size()) {
        // The head: drop it, and any tombstones it uncovers.
        b.keys.pop_back();
        while (!b.keys.empty() && b.keys.back() == kTomb) {
            b.keys.pop_back();
            b.tombs.pop_back();
            --tombs_total_;
        }
        return;
    }
    b.keys[index] = kTomb;
    b.tombs.insert(std::upper_bound(b.tombs.begin(), b.tombs.end(), index), index);
    ++tombs_total_;
    if (b.tombs.size() * 2 > b.keys.size() && b.tombs.size() > 8) {
        // Compact: keep the live keys in order and tell each its new index.
        std::size_t w = 0;
        for (std::size_t r = 0; r < b.keys.size(); ++r) {
            const std::uint32_t key = b.keys[r];
            if (key == kTomb)
                continue;
            b.keys[w] = key;
            std::uint32_t *idx = index_of_key(key);
            if (!(key & kOtherBit)) {
                std::uint64_t &sum = index_sums_[key >> 20][(key & kAutobindMask) >> kIndexBlockBits];
                sum = sum - *idx + w;
            }
            *idx = static_cast<std::uint32_t>(w);
            ++w;
        }
        b.keys.resize(w);
        tombs_total_ -= static_cast<std::uint32_t>(b.tombs.size());
        b.tombs.clear();
    }
}

void AbstractNamespace::journal(std::uint32_t value)
{
    if (journal_.size() >= kJournalCap) {
        journal_.clear();
        ++journal_epoch_;
    }
    journal_.push_back(value);
}

void AbstractNamespace::lookup_value(std::uint32_t value, SockType type, std::uint32_t bucket, ProbeResult &r) const
{
    // __unix_find_socket_byname() compares names only. The only entries in `bucket` that can
    // carry this name are those of `type`: the same name under another type hashes to
    // bucket ^ (type ^ other type) in the low byte, never to `bucket` (1^2, 1^5, 2^5 != 0).
    r.value = value;
    r.bucket = bucket;
    const Bucket &b = bucket_ref(bucket);
    const auto &s = slots_[static_cast<std::size_t>(type_index(type))];
    if (!s.empty() && s[value].held != 0) {
        r.taken = true;
        r.owner = s[value].owner();
        r.position = position(b, s[value].index);
        r.compared = r.position;
    } else {
        r.taken = false;
        r.owner = kNoSock;
        r.position = 0;
        r.compared = static_cast<std::uint32_t>(b.keys.size() - b.tombs.size());
    }
}

BindResult AbstractNamespace::bind_value(std::uint32_t value, SockType type, std::uint32_t sock)
{
    value &= kAutobindMask;
    BindResult res;
    lookup_value(value, type, autobind_bucket(value, type), res.lookup);
    if (res.lookup.taken) {
        res.err = Errno::addrinuse;
        stats_.addrinuse += 1;
        return res;
    }
    insert_value(value, type, sock);
    stats_.explicit_binds += 1;
    return res;
}

bool AbstractNamespace::insert_value(std::uint32_t value, SockType type, std::uint32_t sock)
{
    auto &s = slots_for(type);
    if (s[value].held != 0)
        return false;
    s[value].held = sock + 1;
    bits_[static_cast<std::size_t>(type_index(type))][value >> 6] |= std::uint64_t{1} << (value & 63u);
    s[value].index =
        add_entry(autobind_bucket(value, type), (static_cast<std::uint32_t>(type_index(type)) << 20) | value);
    index_sums_[static_cast<std::size_t>(type_index(type))][value >> kIndexBlockBits] += s[value].index;
    autobind_taken_[static_cast<std::size_t>(type_index(type))] += 1;
    journal(value);
    return true;
}

BindResult AbstractNamespace::bind(std::string_view name, SockType type, std::uint32_t sock)
{
    if (auto v = autobind_value_of(name))
        return bind_value(*v, type, sock);
    BindResult res;
    if (name.size() > kAbstractNameMax) {
        res.err = Errno::inval; // addr_len > sizeof(struct sockaddr_un)
        return res;
    }
    res.lookup = find(name, type);
    if (res.lookup.taken) {
        res.err = Errno::addrinuse;
        stats_.addrinuse += 1;
        return res;
    }
    std::uint32_t idx;
    if (!free_others_.empty()) {
        idx = free_others_.back();
        free_others_.pop_back();
    } else {
        idx = static_cast<std::uint32_t>(others_.size());
        others_.emplace_back();
    }
    OtherName &o = others_[idx];
    o.name.assign(name);
    o.type = type;
    o.owner = sock;
    o.bucket = res.lookup.bucket;
    o.index = add_entry(o.bucket, kOtherBit | idx);
    other_index_[static_cast<std::size_t>(type_index(type))].emplace(o.name, idx);
    other_taken_[static_cast<std::size_t>(type_index(type))] += 1;
    stats_.explicit_binds += 1;
    return res;
}

bool AbstractNamespace::unbind_value(std::uint32_t value, SockType type, std::uint32_t sock)
{
    value &= kAutobindMask;
    auto &s = slots_[static_cast<std::size_t>(type_index(type))];
    if (s.empty() || s[value].held == 0 || s[value].owner() != sock)
        return false;
    index_sums_[static_cast<std::size_t>(type_index(type))][value >> kIndexBlockBits] -= s[value].index;
    remove_entry(autobind_bucket(value, type), s[value].index);
    s[value] = Slot{};
    bits_[static_cast<std::size_t>(type_index(type))][value >> 6] &= ~(std::uint64_t{1} << (value & 63u));
    autobind_taken_[static_cast<std::size_t>(type_index(type))] -= 1;
    journal(value);
    return true;
}

bool AbstractNamespace::unbind(std::string_view name, SockType type, std::uint32_t sock)
{
    if (auto v = autobind_value_of(name))
        return unbind_value(*v, type, sock);
    auto &map = other_index_[static_cast<std::size_t>(type_index(type))];
    auto it = map.find(std::string(name));
    if (it == map.end() || others_[it->second].owner != sock)
        return false;
    const std::uint32_t idx = it->second;
    map.erase(it);
    OtherName &o = others_[idx];
    remove_entry(o.bucket, o.index);
    o = OtherName{};
    free_others_.push_back(idx);
    other_taken_[static_cast<std::size_t>(type_index(type))] -= 1;
    return true;
}

void AbstractNamespace::note_lock_wait(std::uint64_t ns)
{
    stats_.lock_waits += 1;
    stats_.lock_wait_ns += ns;
}

ProbeResult AbstractNamespace::find_value(std::uint32_t value, SockType type) const
{
    value &= kAutobindMask;
    ProbeResult r;
    lookup_value(value, type, autobind_bucket(value, type), r);
    return r;
}

ProbeResult AbstractNamespace::find(std::string_view name, SockType type) const
{
    if (auto v = autobind_value_of(name))
        return find_value(*v, type);
    ProbeResult r;
    r.value = kNoSock;
    r.bucket = abstract_name_bucket(name, type);
    const Bucket &b = bucket_ref(r.bucket);
    // As in lookup_value(): only an entry of this type can have this name in this bucket.
    const auto &map = other_index_[static_cast<std::size_t>(type_index(type))];
    auto it = name.size() > kAbstractNameMax ? map.end() : map.find(std::string(name));
    if (it != map.end()) {
        const OtherName &o = others_[it->second];
        r.taken = true;
        r.owner = o.owner;
        r.position = position(b, o.index);
        r.compared = r.position;
    } else {
        r.compared = static_cast<std::uint32_t>(b.keys.size() - b.tombs.size());
    }
    return r;
}

std::uint32_t AbstractNamespace::owner(SockType type, std::uint32_t value) const
{
    const auto &s = slots_[static_cast<std::size_t>(type_index(type))];
    return s.empty() ? kNoSock : s[value & kAutobindMask].owner();
}

unsigned AbstractNamespace::taken_mask(std::uint32_t value) const
{
    // From the bitmaps (128 KiB a type, cache-resident), not the 8 MiB slot arrays: the map
    // repaints tens of thousands of scattered values per frame.
    unsigned m = 0;
    value &= kAutobindMask;
    for (int t = 0; t < kSockTypes; ++t) {
        const auto &b = bits_[static_cast<std::size_t>(t)];
        if (!b.empty() && (b[value >> 6] >> (value & 63u) & 1u))
            m |= 1u << t;
    }
    return m;
}

std::uint32_t AbstractNamespace::owner_of_name(std::string_view name, SockType type) const
{
    return find(name, type).owner;
}

std::uint32_t AbstractNamespace::names_taken(SockType type) const
{
    const auto t = static_cast<std::size_t>(type_index(type));
    return autobind_taken_[t] + other_taken_[t];
}

std::uint32_t AbstractNamespace::autobind_names_taken(SockType type) const
{
    return autobind_taken_[static_cast<std::size_t>(type_index(type))];
}

std::uint32_t AbstractNamespace::names_taken_total() const
{
    std::uint32_t n = 0;
    for (int t = 0; t < kSockTypes; ++t)
        n += autobind_taken_[static_cast<std::size_t>(t)] + other_taken_[static_cast<std::size_t>(t)];
    return n;
}

std::uint32_t AbstractNamespace::chain_length(std::uint32_t bucket) const
{
    if (bucket < kAbstractBucketBase || bucket >= kAbstractBucketBase + kAbstractBuckets)
        return 0;
    const Bucket &b = bucket_ref(bucket);
    return static_cast<std::uint32_t>(b.keys.size() - b.tombs.size());
}

std::uint32_t AbstractNamespace::longest_chain(std::uint32_t *bucket) const
{
    std::uint32_t best = 0, best_bucket = kAbstractBucketBase;
    for (std::uint32_t i = 0; i < kAbstractBuckets; ++i) {
        const std::uint32_t n = chain_length(kAbstractBucketBase + i);
        if (n > best) {
            best = n;
            best_bucket = kAbstractBucketBase + i;
        }
    }
    if (bucket)
        *bucket = best_bucket;
    return best;
}

std::vector<AbstractNamespace::ChainEntry> AbstractNamespace::chain(std::uint32_t bucket) const
{
    std::vector<ChainEntry> out;
    if (bucket < kAbstractBucketBase || bucket >= kAbstractBucketBase + kAbstractBuckets)
        return out;
    const Bucket &b = bucket_ref(bucket);
    for (auto it = b.keys.rbegin(); it != b.keys.rend(); ++it) {
        const std::uint32_t key = *it;
        if (key == kTomb)
            continue;
        if (key & kOtherBit) {
            const OtherName &o = others_[key & ~kOtherBit];
            out.push_back({o.type, kNoSock, o.name, o.owner});
        } else {
            const auto t = static_cast<SockType>(key >> 20);
            const std::uint32_t v = key & kAutobindMask;
            out.push_back({t, v, autobind_name(v), owner(t, v)});
        }
    }
    return out;
}

bool AbstractNamespace::read_dirty(DirtyCursor &cursor, std::vector<std::uint32_t> &out) const
{
    if (cursor.instance != instance_.id || cursor.epoch != journal_epoch_ || cursor.pos > journal_.size()) {
        cursor.instance = instance_.id;
        cursor.epoch = journal_epoch_;
        cursor.pos = journal_.size();
        return false;
    }
    out.insert(out.end(), journal_.begin() + static_cast<std::ptrdiff_t>(cursor.pos), journal_.end());
    cursor.pos = journal_.size();
    return true;
}

std::size_t AbstractNamespace::memory_bytes() const
{
    std::size_t n = sizeof(*this) + journal_.capacity() * sizeof(std::uint32_t) + others_.size() * sizeof(OtherName);
    for (std::size_t t = 0; t < kSockTypes; ++t) {
        // A bound value touches its slot's page; bound values are mostly clustered, so count
        // the slots themselves plus one page per type in use.
        if (!slots_[t].empty())
            n += 4096 + std::size_t{autobind_taken_[t] + other_taken_[t]} * sizeof(Slot);
        n += bits_[t].capacity() * sizeof(std::uint64_t) + index_sums_[t].capacity() * sizeof(std::uint64_t);
    }
    for (const Bucket &b : buckets_)
        n += (b.keys.capacity() + b.tombs.capacity()) * sizeof(std::uint32_t);
    return n;
}

} // namespace inflight
