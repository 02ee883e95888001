// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/glossary.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace inflight {

namespace {

constexpr std::array kEntries{
    GlossaryEntry{"SCM_RIGHTS", "SCM_RIGHTS",
                  "A control message of sendmsg() that passes open file descriptors to the receiver. Until it is "
                  "received, each passed file sits in the receiver's queue: it is in flight."},
    GlossaryEntry{"AF_UNIX", "AF_UNIX",
                  "Unix domain sockets: sockets between processes of one machine. Only they can pass open files "
                  "to each other, and so only they can build cycles of files in flight."},
    GlossaryEntry{"SCM_CREDENTIALS", "SCM_CREDENTIALS|SO_PASSCRED",
                  "A control message that carries the sender's pid, uid and gid. With SO_PASSCRED set, every "
                  "message carries them; the sender's references on them are taken per message."},
    GlossaryEntry{"SO_PASSRIGHTS", "SO_PASSRIGHTS",
                  "A socket option: with it off, a socket refuses messages that carry files, so no file can be "
                  "put in flight to it."},
    GlossaryEntry{"in flight", "in flight|inflight|flight",
                  "A file passed with SCM_RIGHTS and not yet received is in flight: it sits in a message on some "
                  "socket's receive queue. A socket's inflight count is how many copies of its own file are in "
                  "flight."},
    GlossaryEntry{"file refs (file_count)", "file refs|file_count|refs",
                  "How many references hold a socket's file: one per open fd in a process, one per copy in "
                  "flight, and one while a send or a peek holds it. The file is released when it reaches 0."},
    GlossaryEntry{"peer", "peer|peers",
                  "The socket at the other end of a connected pair (socketpair() or connect()/accept())."},
    GlossaryEntry{"skb", "skb|skbs",
                  "A socket buffer: one message in a receive queue, with the files it carries. The views "
                  "number them skb#1, skb#2, …"},
    GlossaryEntry{"listener and embryo", "listener|embryo|embryos",
                  "A listener is a socket waiting for connections. connect() to it creates an embryo: a new "
                  "socket waiting in the listener's queue until accept() takes it. A file sent to an embryo "
                  "is reachable through its listener."},
    GlossaryEntry{"OOB (MSG_OOB)", "OOB|MSG_OOB|oob_skb",
                  "Out-of-band data on a stream socket: one byte sent with MSG_OOB, kept as its own skb "
                  "(oob_skb). It can carry files like any other message."},
    GlossaryEntry{"PEEK (MSG_PEEK)", "PEEK|MSG_PEEK",
                  "A receive that reads a message without taking it off the queue. Peeking at SCM_RIGHTS gives "
                  "the reader new fds for the files while their copies stay in flight."},
    GlossaryEntry{"unix_tot_inflight", "unix_tot_inflight",
                  "The kernel's count of all AF_UNIX files in flight. A send that pushes it past 16,000 "
                  "starts a collection."},
    GlossaryEntry{"garbage collector (unix_gc)", "collector|collection|collections|unix_gc_work|kworker",
                  "The kernel code that frees sockets only reachable through files in flight, which no close() "
                  "can ever free. It runs as a work item (unix_gc_work) on a kernel worker thread (a kworker), "
                  "after a close() or when too much is in flight."},
    GlossaryEntry{"unix_gc_lock", "unix_gc_lock",
                  "The spinlock that guards the collector's lists, counts and graph. Senders and closers take it "
                  "too, so a task may spin on it while another CPU holds it."},
    GlossaryEntry{"unix_gc_wait and UNIX_INFLIGHT_SANE_USER", "unix_gc_wait|UNIX_INFLIGHT_SANE_USER",
                  "How a sender is made to wait for a running collection: before 6.9 every sender with too much "
                  "in flight slept on unix_gc_wait; since 6.9 only a user with at least UNIX_INFLIGHT_SANE_USER "
                  "(2,024) files in flight waits."},
    GlossaryEntry{"gc_in_progress", "gc_in_progress",
                  "Set while a collection runs; senders and closers look at it to wait for the collector or to "
                  "avoid starting a second one."},
    GlossaryEntry{"gc_inflight_list", "gc_inflight_list",
                  "Classic collector: the list of every socket with a copy of its file in flight."},
    GlossaryEntry{"candidate (gc_candidates)", "candidate|candidates|gc_candidates",
                  "Classic collector: a socket every one of whose file refs is a copy in flight (file_count equal "
                  "to inflight). Only candidates can be garbage; they are gathered on the gc_candidates list."},
    GlossaryEntry{"UNIX_GC_CANDIDATE and UNIX_GC_MAYBE_CYCLE", "UNIX_GC_CANDIDATE|UNIX_GC_MAYBE_CYCLE|MAYBE_CYCLE",
                  "Classic collector: flags on a socket. CANDIDATE marks it as a candidate of this collection; "
                  "MAYBE_CYCLE says it may still be garbage and is cleared once it is found reachable."},
    GlossaryEntry{"not_cycle_list", "not_cycle_list",
                  "Classic collector: candidates found reachable from outside during a collection. They are put "
                  "back on gc_inflight_list when it ends."},
    GlossaryEntry{"hitlist", "hitlist",
                  "The messages (skbs) a collection takes from the queues of garbage sockets. Purging them drops "
                  "the last references to the garbage."},
    GlossaryEntry{"vertex", "vertex|vertices",
                  "Graph collector: the record (struct unix_vertex) of a socket whose file is in flight: a node of "
                  "the graph the collector walks."},
    GlossaryEntry{"edge", "edge|edges",
                  "Graph collector: one copy of a socket's file sitting in another socket's receive queue, drawn "
                  "as an arrow from the file's socket to the queue's socket (struct unix_edge)."},
    GlossaryEntry{"out_degree", "out_degree",
                  "Graph collector: a vertex's number of edges, i.e. copies of its file in flight. A vertex whose "
                  "file refs equal its out_degree has no reference outside flight."},
    GlossaryEntry{"SCC (strongly connected component)", "SCC|SCCs",
                  "A group of sockets that all reach each other through files in flight: a cycle, or cycles "
                  "joined together. The graph collector judges each SCC as a whole: it is garbage only if no "
                  "member is held from outside it."},
    GlossaryEntry{"index and scc_index", "index|scc_index|low-point",
                  "Tarjan's walk numbers each vertex in the order it visits them (index). scc_index (the "
                  "low-point) is the smallest index the vertex can reach; it equals its own index on the root "
                  "of an SCC."},
    GlossaryEntry{"vertex stack", "vertex stack|stack",
                  "Tarjan's walk pushes each vertex it visits on a stack; when the walk comes back to an SCC's "
                  "root, the vertices above it are that SCC."},
    GlossaryEntry{"unix_graph_maybe_cyclic", "unix_graph_maybe_cyclic",
                  "Graph collector: set when a new edge may have closed a cycle. While it is clear no cycle can "
                  "exist, so a collection does nothing."},
    GlossaryEntry{"unix_graph_grouped", "unix_graph_grouped",
                  "Graph collector: set while the SCCs the last walk found are still valid, so the next "
                  "collection can take the fast path over them instead of walking again."},
    GlossaryEntry{"task_work", "task_work",
                  "Work the kernel runs when a task returns to user space. The last fput() of a file queues its "
                  "release there, so a close() takes effect on the way out of the system call."},
    GlossaryEntry{"delayed_fput", "delayed_fput",
                  "The last fput() done by a kernel thread has no return to user space: the release is queued on "
                  "delayed_fput and run a little later by a worker."},
    GlossaryEntry{"unix_peek_seq", "unix_peek_seq",
                  "A counter a peek bumps while a collection runs, so the collector can see that a peek took new "
                  "references behind its verdicts and give the SCC up until the next collection."},
    GlossaryEntry{"unix_table_lock", "unix_table_lock",
                  "The lock of the table of bound socket names (and of abstract names for autobind)."},
    GlossaryEntry{"scm_fp_dup", "scm_fp_dup",
                  "Copies the list of files of an SCM_RIGHTS message, taking a new reference on each: what a "
                  "peek does."},
    GlossaryEntry{"leak", "leak|leaked|leaks",
                  "A socket no fd can reach that the collector left alone: it stays until reboot."},
    GlossaryEntry{"use-after-free", "use-after-free",
                  "Memory used after it was freed: the kernel bug class behind several of the collector's CVEs."},
};

} // namespace

std::span<const GlossaryEntry> glossary() { return kEntries; }

std::vector<std::string_view> glossary_spellings(const GlossaryEntry &entry)
{
    std::vector<std::string_view> out;
    std::string_view rest = entry.spelled;
    while (!rest.empty()) {
        const auto bar = rest.find('|');
        out.push_back(rest.substr(0, bar));
        rest = bar == std::string_view::npos ? std::string_view{} : rest.substr(bar + 1);
    }
    return out;
}

const GlossaryEntry *glossary_entry(std::string_view word)
{
    auto matches = [&](std::string_view spelling) {
        if (spelling == word)
            return true;
        // "Collection" at the start of a sentence is the same word as "collection".
        return !word.empty() && word.size() == spelling.size() &&
               std::islower(static_cast<unsigned char>(spelling[0])) &&
               std::toupper(static_cast<unsigned char>(spelling[0])) == word[0] && word.substr(1) == spelling.substr(1);
    };
    for (const GlossaryEntry &e : kEntries)
        for (std::string_view spelling : glossary_spellings(e))
            if (matches(spelling))
                return &e;
    return nullptr;
}

std::vector<const GlossaryEntry *> glossary_terms_in(std::string_view text)
{
    auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'; };
    std::vector<std::string_view> words;
    for (std::size_t i = 0; i < text.size();) {
        if (!word_char(text[i])) {
            ++i;
            continue;
        }
        std::size_t end = i;
        while (end < text.size() && word_char(text[end]))
            ++end;
        // A hyphen ends a sentence's dash, not a word: "collector -" is "collector".
        std::string_view w = text.substr(i, end - i);
        while (!w.empty() && w.back() == '-')
            w.remove_suffix(1);
        words.push_back(w);
        i = end;
    }
    std::vector<const GlossaryEntry *> found;
    auto add = [&](const GlossaryEntry *e) {
        if (e && std::find(found.begin(), found.end(), e) == found.end())
            found.push_back(e);
    };
    for (std::size_t i = 0; i < words.size(); ++i) {
        // Two-word spellings first ("vertex stack" is not "vertex"): the words are adjacent in
        // `text` when one space separates them.
        if (i + 1 < words.size() && words[i + 1].data() == words[i].data() + words[i].size() + 1 &&
            words[i].data()[words[i].size()] == ' ') {
            const std::string pair = std::string(words[i]) + ' ' + std::string(words[i + 1]);
            if (const GlossaryEntry *e = glossary_entry(pair)) {
                add(e);
                ++i;
                continue;
            }
        }
        add(glossary_entry(words[i]));
    }
    return found;
}

} // namespace inflight
