// SPDX-License-Identifier: GPL-3.0-or-later
// The abstract half of one network namespace's AF_UNIX socket hash table (spec 6): the buckets
// 256..511 of net->unx.table, which hold every socket bound to an abstract name, and the three
// unix_autobind() algorithms the model can run over it.
//
// What is modelled exactly
//  * The bucket of a name is unix_abstract_hash(): csum_fold(csum_partial()) over the sockaddr as
//    x86 reads it (sun_family = AF_UNIX as a little-endian u16, then sun_path: a NUL and the name
//    bytes, no trailing NUL), then h ^= h >> 8, h ^= sk_type, bucket = 256 + (h & 255).
//  * A bucket is an hlist: a bind adds at the head (hlist_add_head / sk_add_node). A lookup
//    (__unix_find_socket_byname) walks the chain from the head and compares address length and
//    bytes only, never the socket type, so it costs the hit's 1-based position, or the whole
//    chain on a miss. Per-type name spaces are a consequence of the type in the hash, not of the
//    compare: the same name under two types always lands in two different buckets (the types
//    1, 2 and 5 differ in the low byte, which is all the XOR touches), so a name is found only
//    under the type it was bound with; but two different names of different types may share a
//    bucket, and then each lengthens the other's chain walks.
//  * An explicit name that is exactly five lowercase hex digits ("0abcd") has the same bytes and
//    length as the autobind name of that value, so it is the same name.
//
// How it is stored (2^20 names of one type bind in well under a second and cost ~12 MiB):
//  * per type, one slot per autobind value 0x00000..0xFFFFF (owner socket id, index in the bucket
//    vector), allocated zeroed on first use (only the pages of bound values take memory); other
//    names live in a per-type hash map;
//  * per bucket, a vector of entry keys in insertion order (the chain's head is the back), with
//    tombstones for removed entries (compacted when they outnumber the live ones). A hit's
//    position from the head is then (entries after it) - (tombstones after it) + 1: O(1) when the
//    bucket has no tombstones, a binary search otherwise. No lookup ever walks a chain.
//
// Kernel functions named here: unix_autobind, unix_abstract_hash, csum_partial, csum_fold,
// __unix_find_socket_byname, unix_table_double_lock, __unix_set_addr_hash, unix_remove_socket.
#pragma once

#include "inflight/errno_code.hpp"
#include "inflight/scene.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace inflight {

// ---- names and hashing -------------------------------------------------------------------------

inline constexpr std::uint32_t kAutobindSpace = 1u << 20;          // values 0x00000..0xFFFFF
inline constexpr std::uint32_t kAutobindMask = kAutobindSpace - 1; // 0xFFFFF
inline constexpr std::uint32_t kAbstractBucketBase = 256;          // UNIX_HASH_MOD + 1
inline constexpr std::uint32_t kAbstractBuckets = 256;             // buckets 256..511
inline constexpr std::uint32_t kAbstractNameMax = 107;             // sun_path is 108 bytes incl. the NUL
inline constexpr std::uint32_t kNoSock = 0xFFFFFFFFu;              // same value as npos
inline constexpr int kSockTypes = 3;                               // SockType::stream, dgram, seqpacket

// sk->sk_type as the hash sees it: SOCK_STREAM 1, SOCK_DGRAM 2, SOCK_SEQPACKET 5.
int sk_type_value(SockType t);
// The autobind name of `value` ("%05x" of value & 0xFFFFF): 0x0abcd -> "0abcd".
std::string autobind_name(std::uint32_t value);
// The value of a name that is exactly five lowercase hex digits, else nullopt ("0ABCD" is not).
std::optional<std::uint32_t> autobind_value_of(std::string_view name);
// The sockaddr_un bytes of an abstract name, as bound: AF_UNIX (01 00), a NUL, the name bytes.
// Its size is the address length (offsetof(sun_path) + 1 + name length); autobind: 8.
std::vector<std::uint8_t> abstract_sockaddr(std::string_view name);
// csum_fold(csum_partial(bytes, len, 0)): the one's-complement sum of the bytes read as
// little-endian u16 words (an odd last byte is the low byte of its word), folded to 16 bits with
// end-around carry, complemented.
std::uint16_t csum_fold_partial(std::span<const std::uint8_t> bytes);
// unix_abstract_hash(sunaddr, addr_len, sk_type): a bucket in 256..511.
std::uint32_t abstract_hash(std::span<const std::uint8_t> sockaddr, int sk_type);
// The bucket of an abstract name (the text after '@') bound by a socket of `type`.
std::uint32_t abstract_name_bucket(std::string_view name, SockType type);
// The bucket of the autobind name of `value` (the same as abstract_name_bucket(autobind_name(v))).
std::uint32_t autobind_bucket(std::uint32_t value, SockType type);

// ---- results -----------------------------------------------------------------------------------

// One __unix_find_socket_byname() over a bucket.
struct ProbeResult {
    std::uint32_t value = 0;       // the autobind value tried (explicit names: kNoSock)
    std::uint32_t bucket = 0;      // 256..511
    std::uint32_t compared = 0;    // chain entries compared: the hit's position, or the chain on a miss
    std::uint32_t position = 0;    // hit: 1-based position from the chain head; miss: 0
    std::uint32_t owner = kNoSock; // hit: the socket that holds the name
    bool taken = false;
};

struct BindResult {
    Errno err = Errno::none; // none, addrinuse (the name is in its bucket), inval (too long)
    ProbeResult lookup;      // the lookup the bind made first
};

// How an autobind ended (or that it has not yet).
enum class AutobindStop : std::uint8_t {
    running, // more probes to come
    bound,   // a free name was found and committed
    enospc,  // the mode's give-up condition held: -ENOSPC
    endless, // random_v1 with initnum >= 2^20 over a full space: the kernel would never return
};
std::string_view autobind_stop_name(AutobindStop s); // "running", "bound", "ENOSPC", "endless"

// Eric Dumazet's "infinite loop alert" on the v1 patch, as the model detects it.
struct EndlessLoop {
    std::uint32_t initnum = 0; // the 32-bit random start
    std::uint32_t probes = 0;  // probes made when it was diagnosed (2^20)
    std::string reason;        // "initnum 0x… ≥ 2^20 but ordernum is masked to 20 bits, …"
};

// Counters over the namespace's life (the panel's figures).
struct AbstractStats {
    std::uint64_t autobinds = 0; // autobind iterations finished (bound, ENOSPC or endless)
    std::uint64_t autobind_bound = 0;
    std::uint64_t probes = 0;   // names tried by all autobinds
    std::uint64_t compared = 0; // chain entries compared by all autobind probes
    std::uint64_t enospc = 0;
    std::uint64_t endless = 0;
    std::uint64_t explicit_binds = 0; // successful binds by name
    std::uint64_t addrinuse = 0;      // binds by name refused
    std::uint64_t lock_waits = 0;     // hash-lock waits the kernel reported (note_lock_wait)
    std::uint64_t lock_wait_ns = 0;
    std::uint32_t last_probes = 0; // probes of the last finished autobind
};

// The autobind that probed most recently (the map's "probed by the current bind" overlay). In
// the random modes and in an uncontended sequential bind the values tried are the run
// first, first+1, ... (mod 2^20) of length `probes`, ending at `cursor`.
struct AutobindTrace {
    bool active = false; // probing; false once it ended (bound / ENOSPC / endless)
    bool any = false;    // an autobind has probed at all
    SockType type = SockType::stream;
    AutobindMode mode = AutobindMode::random;
    std::uint32_t first = 0;  // first value tried
    std::uint32_t cursor = 0; // last value tried
    std::uint32_t probes = 0;
    AutobindStop stop = AutobindStop::running;
    std::uint32_t sock = kNoSock; // the socket it bound (bound only)
};

// Where a reader of the change journal is (see AbstractNamespace::read_dirty).
struct DirtyCursor {
    std::uint64_t instance = 0; // 0: never read
    std::uint64_t epoch = 0;
    std::size_t pos = 0;
};

class AbstractNamespace;

// ---- the probe iterator --------------------------------------------------------------------------
//
// One unix_autobind() call, one probe at a time, so that the kernel can yield an event per probe
// and take and release the bucket locks between probes. Each probe is four steps:
//
//   1. format()          no lock held. random, random_v1: ordernum = (ordernum + 1) & 0xFFFFF,
//                        then the name is "%05x" of ordernum. sequential: the name is "%05x" of the
//                        namespace's shared ordernum, which is only read here.
//   2. locked_advance()  under the bucket lock(s). sequential: the shared ordernum advances,
//                        ordernum = (ordernum + 1) & 0xFFFFF. Other modes: nothing.
//                        (Two sequential binders that both format before either advances try the
//                        same name; the loser then skips the value the winner's advance passed
//                        over: the contention the 2021 patch removed.)
//   3. lookup()          under the lock: __unix_find_socket_byname() in the name's bucket.
//                        Free: the caller binds with commit(sock) (still under the lock), done.
//   4. after_taken()     after unlock, taken only: the mode's give-up test —
//                        sequential: retries++ == 0xFFFFF -> ENOSPC (the 2^20th collision);
//                        random_v1:  ordernum == initnum -> ENOSPC (after exactly 2^20 probes when
//                                    initnum < 2^20); when initnum >= 2^20 that never holds, and the
//                                    2^20th consecutive collision is reported as `endless`;
//                        random:     ordernum == lastnum -> ENOSPC (after exactly 2^20 probes).
//                        Otherwise the iterator is ready for the next format().
//
// probe() runs steps 1-4 at once (commit stays with the caller). Steps out of order are ignored
// (they return the current state). The iterator points at its namespace, which must outlive it
// and not move.
class AutobindIterator {
public:
    AutobindIterator(AbstractNamespace &ns, SockType type, AutobindMode mode, std::uint32_t random32);
    AutobindIterator(AbstractNamespace &ns, SockType type, AutobindMode mode, std::mt19937_64 &rng);

    std::uint32_t format();
    void locked_advance();
    const ProbeResult &lookup();
    Errno commit(std::uint32_t sock); // free only: binds the value; addrinuse if taken meanwhile
    AutobindStop after_taken();
    const ProbeResult &probe(); // format + locked_advance + lookup (+ after_taken if taken)
    // Bulk probing, for the long runs of taken names near a full space (filling all 2^20 names
    // with random starts makes ~7.4e8 probes). Makes at once the probes that successive probe()
    // calls would make while they find names taken, with the same give-up tests, and stops
    // before a free name (the next probe() finds it), when the mode gives up (stop() is then
    // enospc or endless) or after `limit` probes. Returns the probes made; last() is the last
    // of them. With count_compares the chain entries they compare are counted exactly
    // (compared(), stats().compared); without, a bitmap scan skips them uncounted. Only from
    // the ready state. Sequential: the shared ordernum advances once per probe, as if no other
    // binder ran meanwhile.
    std::uint32_t skip_taken(std::uint32_t limit = kAutobindSpace, bool count_compares = true);
    // Probes until bound (then commits `sock`), ENOSPC or endless, skipping runs of taken names
    // with skip_taken(). Returns the stop.
    AutobindStop run(std::uint32_t sock, bool count_compares = true);

    AutobindStop stop() const { return stop_; }
    bool finished() const { return stop_ != AutobindStop::running; }
    bool awaiting_commit() const { return phase_ == Phase::free; } // lookup() found it free
    SockType type() const { return type_; }
    AutobindMode mode() const { return mode_; }
    std::uint32_t value() const { return value_; } // the name of the current/last probe
    std::uint32_t bucket() const { return bucket_; }
    std::uint32_t probes() const { return probes_; } // lookups made
    std::uint64_t compared() const { return compared_; }
    std::uint32_t start() const { return start_; }       // random32; sequential: shared ordernum at start
    std::uint32_t ordernum() const { return ordernum_; } // random modes: the private ordernum
    std::uint32_t retries() const { return retries_; }   // sequential
    const ProbeResult &last() const { return last_; }
    // random_v1 only, once stop() == endless.
    const std::optional<EndlessLoop> &endless() const { return endless_; }

private:
    enum class Phase : std::uint8_t { ready, formatted, advanced, taken, free, done };
    void finish(AutobindStop s);
    void diagnose_endless();
    void note_first_probe();

    AbstractNamespace *ns_;
    SockType type_;
    AutobindMode mode_;
    Phase phase_ = Phase::ready;
    AutobindStop stop_ = AutobindStop::running;
    std::uint32_t start_ = 0;
    std::uint32_t ordernum_ = 0; // random modes
    std::uint32_t initnum_ = 0;  // random_v1: 32 bits; random: lastnum (20 bits)
    std::uint32_t retries_ = 0;  // sequential
    std::uint32_t value_ = 0;
    std::uint32_t bucket_ = 0;
    std::uint32_t probes_ = 0;
    std::uint64_t compared_ = 0;
    ProbeResult last_;
    std::optional<EndlessLoop> endless_;
};

// ---- the namespace -----------------------------------------------------------------------------------

class AbstractNamespace {
public:
    AbstractNamespace();
    AbstractNamespace(const AbstractNamespace &other); // a copy is a new instance
    AbstractNamespace &operator=(const AbstractNamespace &other);
    AbstractNamespace(AbstractNamespace &&) noexcept = default;
    AbstractNamespace &operator=(AbstractNamespace &&) noexcept = default;

    // ---- binding -----------------------------------------------------------------------------
    // bind() with an abstract name (the text after '@'). A five-lowercase-hex name is the
    // autobind name of that value.
    BindResult bind(std::string_view name, SockType type, std::uint32_t sock);
    BindResult bind_value(std::uint32_t value, SockType type, std::uint32_t sock);
    // unix_remove_socket() on release: removes the name if `sock` holds it (false otherwise).
    bool unbind(std::string_view name, SockType type, std::uint32_t sock);
    bool unbind_value(std::uint32_t value, SockType type, std::uint32_t sock);
    // Starts one unix_autobind() (see AutobindIterator). random32: the kernel's random draw
    // (ignored by sequential, which uses the shared ordernum).
    AutobindIterator autobind(SockType type, AutobindMode mode, std::uint32_t random32)
    {
        return AutobindIterator(*this, type, mode, random32);
    }
    AutobindIterator autobind(SockType type, AutobindMode mode, std::mt19937_64 &rng)
    {
        return AutobindIterator(*this, type, mode, rng);
    }
    // The kernel reports a wait for a bucket lock (for the panel's "lock waits").
    void note_lock_wait(std::uint64_t ns);

    // ---- lookups (no side effects) ---------------------------------------------------------------
    // __unix_find_socket_byname() as connect()/sendto() run it for a socket of `type`.
    ProbeResult find(std::string_view name, SockType type) const;
    ProbeResult find_value(std::uint32_t value, SockType type) const;

    // ---- queries ----------------------------------------------------------------------------------
    std::uint32_t owner(SockType type, std::uint32_t value) const; // kNoSock if free
    bool is_taken(SockType type, std::uint32_t value) const { return owner(type, value) != kNoSock; }
    // Bit (1 << int(type)) set for each type that holds `value` (the map's pixel).
    unsigned taken_mask(std::uint32_t value) const;
    std::uint32_t owner_of_name(std::string_view name, SockType type) const;
    std::uint32_t names_taken(SockType type) const;          // every name of that type
    std::uint32_t autobind_names_taken(SockType type) const; // names in the 2^20 value space
    std::uint32_t names_taken_total() const;
    std::uint32_t chain_length(std::uint32_t bucket) const; // bucket 256..511 (else 0)
    std::uint32_t longest_chain(std::uint32_t *bucket = nullptr) const;
    struct ChainEntry {
        SockType type;
        std::uint32_t value; // autobind value, or kNoSock for another name
        std::string name;    // the name (the text after '@')
        std::uint32_t owner;
    };
    std::vector<ChainEntry> chain(std::uint32_t bucket) const; // from the head
    // The shared `static u32 ordernum` of the sequential mode (starts at 1).
    std::uint32_t sequential_ordernum() const { return ordernum_; }
    void set_sequential_ordernum(std::uint32_t n) { ordernum_ = n & kAutobindMask; }
    const AbstractStats &stats() const { return stats_; }
    const AutobindTrace &trace() const { return trace_; }

    // ---- change journal (incremental repaint) ----------------------------------------------------
    // Appends to `out` every autobind value whose owners changed since `cursor`, and moves the
    // cursor. Values may repeat. Returns false (and appends nothing) when the reader must re-read
    // everything: a first read, another namespace object (a replay builds a new kernel), or a
    // journal that was cleared because it grew past kJournalCap entries.
    bool read_dirty(DirtyCursor &cursor, std::vector<std::uint32_t> &out) const;
    std::uint64_t instance() const { return instance_.id; }
    // Memory a copy takes, estimated: the touched slot pages, bitmaps, chains and journal.
    std::size_t memory_bytes() const;
    // Sized so that a reader polling at any sane rate never misses a fill: 2^20 changes (4 MiB).
    static constexpr std::size_t kJournalCap = 1u << 20;

private:
    friend class AutobindIterator;

    struct Slot {
        std::uint32_t held = 0;  // the owner socket + 1; 0 = free (so zeroed memory is all free)
        std::uint32_t index = 0; // in its bucket's keys
        std::uint32_t owner() const { return held - 1; } // kNoSock when free
    };
    // The 2^20 slots of one type, zero-filled pages from mmap(): the pages of values nobody binds
    // are never written, so they take no memory (a type with a single name costs a page, not
    // 8 MiB).
    class SlotArray {
    public:
        SlotArray() = default;
        SlotArray(const SlotArray &other);
        SlotArray &operator=(const SlotArray &other);
        SlotArray(SlotArray &&other) noexcept : p_(other.p_) { other.p_ = nullptr; }
        SlotArray &operator=(SlotArray &&other) noexcept
        {
            std::swap(p_, other.p_);
            return *this;
        }
        ~SlotArray();
        bool empty() const { return p_ == nullptr; }
        void allocate();
        Slot &operator[](std::size_t v) { return p_[v]; }
        const Slot &operator[](std::size_t v) const { return p_[v]; }

    private:
        Slot *p_ = nullptr;
    };
    struct Bucket {
        std::vector<std::uint32_t> keys;  // insertion order; back = chain head; kTomb = removed
        std::vector<std::uint32_t> tombs; // indices of removed entries, ascending
    };
    struct OtherName {
        std::string name;
        SockType type = SockType::stream;
        std::uint32_t owner = kNoSock;
        std::uint32_t index = 0;
        std::uint32_t bucket = 0;
    };
    struct InstanceId {
        std::uint64_t id;
        InstanceId();
        InstanceId(const InstanceId &);
        InstanceId &operator=(const InstanceId &);
        InstanceId(InstanceId &&) noexcept = default;
        InstanceId &operator=(InstanceId &&) noexcept = default;
    };
    static constexpr std::uint32_t kTomb = 0xFFFFFFFFu;
    static constexpr std::uint32_t kOtherBit = 0x80000000u;

    Bucket &bucket_ref(std::uint32_t bucket) { return buckets_[bucket - kAbstractBucketBase]; }
    const Bucket &bucket_ref(std::uint32_t bucket) const { return buckets_[bucket - kAbstractBucketBase]; }
    std::uint32_t position(const Bucket &b, std::uint32_t index) const;
    std::uint32_t add_entry(std::uint32_t bucket, std::uint32_t key);          // returns its index
    bool insert_value(std::uint32_t value, SockType type, std::uint32_t sock); // false if taken
    void remove_entry(std::uint32_t bucket, std::uint32_t index);
    std::uint32_t *index_of_key(std::uint32_t key);
    SlotArray &slots_for(SockType type); // (not "slots": a Qt keyword)
    // First offset k < n such that value (start + k) & 0xFFFFF is free for `type`; n if none.
    std::uint32_t first_free(SockType type, std::uint32_t start, std::uint32_t n) const;
    // The chain entries compared by probes of the (taken) values start .. start + n - 1.
    std::uint64_t compares_of_run(SockType type, std::uint32_t start, std::uint32_t n) const;
    void lookup_value(std::uint32_t value, SockType type, std::uint32_t bucket, ProbeResult &out) const;
    void journal(std::uint32_t value);

    std::array<SlotArray, kSockTypes> slots_;                 // empty until first used
    std::array<std::vector<std::uint64_t>, kSockTypes> bits_; // taken bitmap, with slots_
    // Per block of 1024 values: the sum of Slot::index over the taken values (with slots_), so
    // that compares_of_run() adds whole blocks of a long run at once.
    std::array<std::vector<std::uint64_t>, kSockTypes> index_sums_;
    std::uint32_t tombs_total_ = 0; // tombstones in all buckets
    std::array<std::uint32_t, kSockTypes> autobind_taken_{};
    std::array<std::uint32_t, kSockTypes> other_taken_{};
    std::array<std::unordered_map<std::string, std::uint32_t>, kSockTypes> other_index_;
    std::vector<OtherName> others_;
    std::vector<std::uint32_t> free_others_;
    std::array<Bucket, kAbstractBuckets> buckets_;
    std::uint32_t ordernum_ = 1;
    AbstractStats stats_;
    AutobindTrace trace_;
    std::vector<std::uint32_t> journal_;
    std::uint64_t journal_epoch_ = 0;
    InstanceId instance_;
};

} // namespace inflight
