// SPDX-License-Identifier: GPL-3.0-or-later
// `inflight-cli replay --vm VMLINUZ`: the replay on another kernel, booted under qemu with a
// small initramfs (static busybox, the static inflight-replay-agent, the scene, and the
// kernel's unix_diag module when one is found), for clean verdicts on other versions. The agent
// is the same replayer as the in-process one; it reports over the serial console.
#pragma once

#include "inflight/kernel_replay.hpp"

#include <string>

namespace inflight {

struct VmOptions {
    std::string vmlinuz;
    std::string agent;       // the static inflight-replay-agent
    std::string modules_dir; // where to look for unix_diag.ko; empty: next to the vmlinuz (../lib/modules)
    std::string busybox = "/bin/busybox";
    std::string qemu = "qemu-system-x86_64";
    std::string accel = "tcg"; // or "kvm"; TCG works everywhere, nested KVM does not always
    unsigned memory_mb = 256;
    unsigned timeout_s = 300;
};

// KernelRun::ran is false, with the reason in failure, when the VM could not be made, booted
// or did not report.
KernelRun run_in_vm(const std::string &scene_file, const VmOptions &options);

} // namespace inflight
