// SPDX-License-Identifier: GPL-3.0-or-later
// The names of a run's objects, kept without the run: every socket's label, the processes,
// tasks, findings and bound addresses, the collector's era. What the event log, the trace
// export and the narration need to name any step's objects once the run is finished, in a
// fraction of its memory: a finished run's state is mostly sockets, files and queues, of which
// the views need only the labels (the name pool is shared with the run it was taken from).
#pragma once

#include "inflight/gc_era.hpp"
#include "inflight/name_pool.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace inflight {

class Kernel;

class RunNames {
public:
    struct FindingText {
        std::string invariant;
        std::string message;
        bool warning = false;
        std::uint64_t step = 0; // the micro-step it was made at
    };

    RunNames() = default;
    static RunNames of(const Kernel &k);

    GcEra era() const { return era_; }
    // "?" for a socket the run never made, like Kernel::label_of_id().
    std::string label_of_id(std::uint32_t sock) const;
    std::size_t socket_count() const { return sock_label_.size(); }
    // A socket by any of its labels ("a", an accepted fd's name), like socket_labelled().
    std::optional<std::uint32_t> socket_labelled(std::string_view label) const;
    const NamePool &name_pool() const { return names_; }
    std::size_t process_count() const { return processes_.size(); }
    const std::string &process_name(std::size_t i) const { return processes_[i]; }
    std::size_t task_count() const { return tasks_.size(); }
    const std::string &task_name(std::size_t i) const { return tasks_[i]; }
    std::size_t finding_count() const { return findings_.size(); }
    const FindingText &finding(std::size_t i) const { return findings_[i]; }
    std::size_t address_count() const { return addresses_.size(); }
    const std::string &address(std::size_t i) const { return addresses_[i]; }

private:
    GcEra era_ = GcEra::async;
    NamePool names_;
    std::vector<std::uint32_t> sock_label_;  // name id, by socket id
    std::vector<std::uint32_t> label_owner_; // socket id, by name id (npos: no socket's)
    std::vector<std::string> processes_, tasks_, addresses_;
    std::vector<FindingText> findings_;
};

} // namespace inflight
