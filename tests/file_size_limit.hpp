// SPDX-License-Identifier: GPL-3.0-or-later
// A write failure on demand, without a full disk: while a FileSizeLimit lives, this process
// cannot make a regular file larger than `bytes` (RLIMIT_FSIZE); a write past it fails with
// EFBIG, as one on a full disk fails with ENOSPC. SIGXFSZ, which would end the process
// instead, is ignored meanwhile. Only the soft limit moves, so any user may restore it.
#pragma once

#include <csignal>

#include <sys/resource.h>

namespace inflight::test {

class FileSizeLimit {
public:
    explicit FileSizeLimit(rlim_t bytes)
    {
        old_handler_ = std::signal(SIGXFSZ, SIG_IGN);
        getrlimit(RLIMIT_FSIZE, &old_);
        rlimit limited = old_;
        limited.rlim_cur = bytes;
        set_ = setrlimit(RLIMIT_FSIZE, &limited) == 0;
    }
    ~FileSizeLimit()
    {
        setrlimit(RLIMIT_FSIZE, &old_);
        std::signal(SIGXFSZ, old_handler_);
    }
    FileSizeLimit(const FileSizeLimit &) = delete;
    FileSizeLimit &operator=(const FileSizeLimit &) = delete;
    bool active() const { return set_; }

private:
    rlimit old_{};
    void (*old_handler_)(int) = SIG_DFL;
    bool set_ = false;
};

} // namespace inflight::test
