// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/vm_replay.hpp"

#include "die_with_parent.hpp"
#include "inflight/atomic_file.hpp"

#include "pipe_io.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace fs = std::filesystem;

namespace inflight {

namespace {

// An initramfs is a cpio archive in the "newc" format: per entry a 110-byte ASCII header, the
// NUL-terminated name and the data, each padded to four bytes; a TRAILER!!! entry ends it.
class CpioWriter {
public:
    void directory(const std::string &name) { entry(name, 040755, {}); }
    void file(const std::string &name, const std::string &data, unsigned mode) { entry(name, 0100000 | mode, data); }
    std::string finish()
    {
        entry("TRAILER!!!", 0, {});
        return std::move(out_);
    }

private:
    void entry(const std::string &name, unsigned mode, const std::string &data)
    {
        char header[111];
        std::snprintf(header, sizeof header, "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X", ino_++, mode,
                      0u, 0u, 1u, 0u, static_cast<unsigned>(data.size()), 0u, 0u, 0u, 0u,
                      static_cast<unsigned>(name.size() + 1), 0u);
        out_.append(header, 110);
        out_ += name;
        out_ += '\0';
        pad();
        out_ += data;
        pad();
    }
    void pad()
    {
        while (out_.size() % 4)
            out_ += '\0';
    }
    std::string out_;
    unsigned ino_ = 1;
};

bool read_file(const std::string &path, std::string &out)
{
    std::ifstream f(path, std::ios::binary);
    if (!f)
        return false;
    std::ostringstream s;
    s << f.rdbuf();
    out = s.str();
    return true;
}

// unix_diag.ko under `dir` (uncompressed: busybox insmod loads no .xz or .zst).
std::string find_unix_diag(const fs::path &dir)
{
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        return {};
    for (fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
         it != end && !ec; it.increment(ec))
        if (it->path().filename() == "unix_diag.ko")
            return it->path();
    return {};
}

} // namespace

KernelRun run_in_vm(const std::string &scene_file, const VmOptions &o)
{
    KernelRun failed;
    failed.release = "unknown (virtual machine)";
    std::string scene, agent, busybox, diag_module;
    if (!read_file(scene_file, scene)) {
        failed.failure = "cannot read " + scene_file;
        return failed;
    }
    // What the user named first (the scene, then the kernel), then the tools we bring: a
    // mistyped --vm path is reported as such on a machine without busybox-static too.
    if (!fs::exists(o.vmlinuz)) {
        failed.failure = "no kernel image at " + o.vmlinuz;
        return failed;
    }
    if (o.agent.empty() || !read_file(o.agent, agent)) {
        failed.failure = "cannot read the replay agent '" + o.agent + "' (build the inflight-replay-agent target)";
        return failed;
    }
    if (!read_file(o.busybox, busybox)) {
        failed.failure = "cannot read " + o.busybox + " (install busybox-static)";
        return failed;
    }
    const fs::path modules =
        o.modules_dir.empty() ? fs::path(o.vmlinuz).parent_path() / ".." / "lib" / "modules" : fs::path(o.modules_dir);
    const std::string diag_path = find_unix_diag(modules);
    if (!diag_path.empty())
        read_file(diag_path, diag_module);

    CpioWriter cpio;
    for (const char *d : {"bin", "proc", "sys", "dev", "tmp"})
        cpio.directory(d);
    cpio.file("bin/busybox", busybox, 0755);
    cpio.file("inflight-replay-agent", agent, 0755);
    cpio.file("scene.scn", scene, 0644);
    if (!diag_module.empty())
        cpio.file("unix_diag.ko", diag_module, 0644);
    cpio.file("init",
              "#!/bin/busybox sh\n"
              "/bin/busybox mount -t proc proc /proc\n"
              "/bin/busybox mount -t sysfs sys /sys\n"
              "/bin/busybox mount -t devtmpfs dev /dev\n"
              "[ -f /unix_diag.ko ] && /bin/busybox insmod /unix_diag.ko\n"
              "/inflight-replay-agent /scene.scn\n"
              "/bin/busybox poweroff -f\n",
              0755);
    char dir_template[] = "/tmp/inflight-vm-XXXXXX";
    const char *dir = mkdtemp(dir_template);
    if (!dir) {
        failed.failure = std::string("mkdtemp: ") + std::strerror(errno);
        return failed;
    }
    const std::string initrd = std::string(dir) + "/initrd.cpio";
    // A fresh file in a private directory: nothing to keep, but a short write (a full /tmp)
    // must not boot a truncated initramfs that fails in some obscure way.
    if (const auto failure = write_file_atomically(initrd, cpio.finish())) {
        fs::remove_all(dir);
        failed.failure = failure->message("write", initrd);
        return failed;
    }

    const std::string memory = std::to_string(o.memory_mb);
    const std::string accel = o.accel;
    std::vector<std::string> args = {o.qemu,       "-accel",    accel,  "-m",      memory,
                                     "-smp",       "1",         "-net", "none",    "-kernel",
                                     o.vmlinuz,    "-initrd",   initrd, "-append", "console=ttyS0 panic=-1 quiet",
                                     "-nographic", "-no-reboot"};
    std::vector<char *> argv;
    for (std::string &a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    int out[2];
    if (pipe2(out, O_CLOEXEC) < 0) {
        fs::remove_all(dir);
        failed.failure = std::string("pipe: ") + std::strerror(errno);
        return failed;
    }
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid == 0) {
        die_with_parent(parent); // kept across exec: qemu dies with the replay
        const int null = open("/dev/null", O_RDWR);
        dup2(null, 0);
        dup2(out[1], 1);
        dup2(out[1], 2);
        execvp(argv[0], argv.data());
        _exit(127);
    }
    close(out[1]);
    std::string console;
    const auto start = std::chrono::steady_clock::now();
    bool timed_out = false;
    for (;;) {
        const auto used =
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
        if (used.count() >= static_cast<long>(o.timeout_s) * 1000) {
            timed_out = true;
            kill(pid, SIGKILL);
            break;
        }
        pollfd p{out[0], POLLIN, 0};
        if (poll(&p, 1, 500) <= 0)
            continue;
        char buf[65536];
        const ssize_t n = read(out[0], buf, sizeof buf);
        if (n <= 0)
            break;
        console.append(buf, static_cast<std::size_t>(n));
    }
    close(out[0]);
    int status = 0;
    if (pid > 0)
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) { }
    fs::remove_all(dir);
    if (pid < 0) {
        failed.failure = std::string("fork: ") + std::strerror(errno);
        return failed;
    }
    const auto begin = console.find("INFLIGHT-REPLAY-BEGIN");
    const auto end = console.find("INFLIGHT-REPLAY-END");
    if (begin == std::string::npos || end == std::string::npos || end < begin) {
        failed.failure = timed_out ? "the virtual machine did not report within " + std::to_string(o.timeout_s) + " s"
                         : WIFEXITED(status) && WEXITSTATUS(status) == 127
                             ? "cannot run " + o.qemu + " (install qemu-system-x86)"
                             : "the virtual machine ended without a report; its console ended with: " +
                                   console.substr(console.size() > 600 ? console.size() - 600 : 0);
        return failed;
    }
    std::string json = console.substr(begin + 21, end - begin - 21);
    std::erase(json, '\r');
    auto run = parse_kernel_run(json);
    if (!run) {
        failed.failure = "the virtual machine's report is not readable";
        return failed;
    }
    if (diag_module.empty())
        run->isolation += " (no unix_diag.ko found under " + modules.string() + ": embryos unseen)";
    run->isolation += ", inside a qemu virtual machine";
    return *run;
}

} // namespace inflight
