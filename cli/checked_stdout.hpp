// SPDX-License-Identifier: GPL-3.0-or-later
// inflight-cli's stdout: std::cout writes through this buffer, which writes file descriptor 1
// itself and keeps the errno of the first write that failed. stdio's own buffer forgets it
// (a failed flush empties the buffer, and the final fflush() then succeeds), so main() could
// only tell that something was lost, not why. After a failure the rest is dropped: the output
// is incomplete either way, and main() ends with a message and a non-zero exit. On a terminal
// each line is written as it ends, as stdio does, so a long --trace shows as it runs.
#pragma once

#include <array>
#include <streambuf>

namespace inflight_cli {

class CheckedStdout : public std::streambuf {
public:
    explicit CheckedStdout(int fd);
    CheckedStdout(const CheckedStdout &) = delete;
    CheckedStdout &operator=(const CheckedStdout &) = delete;
    // The errno of the first write that failed; 0 while every byte got out.
    int error() const { return error_; }

protected:
    int_type overflow(int_type c) override;
    std::streamsize xsputn(const char *s, std::streamsize n) override;
    int sync() override;

private:
    bool drain();
    int fd_;
    bool line_buffered_;
    int error_ = 0;
    std::array<char, 64 * 1024> buffer_;
};

} // namespace inflight_cli
