// SPDX-License-Identifier: GPL-3.0-or-later
// A live kernel's names under RunNames' interface: the narration and the trace export are
// written once, for either (a state being stepped through, or a finished run's names).
#pragma once

#include "inflight/kernel.hpp"

namespace inflight {

class KernelNames {
public:
    explicit KernelNames(const Kernel &k) : k_(k) { }
    GcEra era() const { return k_.era(); }
    std::string label_of_id(std::uint32_t sock) const { return k_.label_of_id(sock); }
    const NamePool &name_pool() const { return k_.name_pool; }
    std::size_t process_count() const { return k_.processes.size(); }
    const std::string &process_name(std::size_t i) const { return k_.processes[i].name; }
    std::size_t task_count() const { return k_.tasks.size(); }
    const std::string &task_name(std::size_t i) const { return k_.tasks[i].name; }
    std::size_t finding_count() const { return k_.findings.size(); }
    const Finding &finding(std::size_t i) const { return k_.findings[i]; }
    std::size_t address_count() const { return k_.addresses.size(); }
    const std::string &address(std::size_t i) const { return k_.addresses[i]; }

private:
    const Kernel &k_;
};

} // namespace inflight
