// SPDX-License-Identifier: GPL-3.0-or-later
#include "checked_stdout.hpp"

#include "inflight/write_all.hpp"

#include <cstring>
#include <string_view>

#include <unistd.h>

namespace inflight_cli {

CheckedStdout::CheckedStdout(int fd) : fd_(fd), line_buffered_(::isatty(fd) == 1)
{
    setp(buffer_.data(), buffer_.data() + buffer_.size());
}

bool CheckedStdout::drain()
{
    const std::string_view pending(pbase(), static_cast<std::size_t>(pptr() - pbase()));
    setp(buffer_.data(), buffer_.data() + buffer_.size());
    if (error_ == 0 && !pending.empty())
        error_ = inflight::write_all(fd_, pending);
    return error_ == 0;
}

CheckedStdout::int_type CheckedStdout::overflow(int_type c)
{
    if (!drain())
        return traits_type::eof();
    if (traits_type::eq_int_type(c, traits_type::eof()))
        return traits_type::not_eof(c);
    *pptr() = traits_type::to_char_type(c);
    pbump(1);
    if (line_buffered_ && traits_type::to_char_type(c) == '\n' && !drain())
        return traits_type::eof();
    return c;
}

std::streamsize CheckedStdout::xsputn(const char *s, std::streamsize n)
{
    if (n <= epptr() - pptr()) {
        std::memcpy(pptr(), s, static_cast<std::size_t>(n));
        pbump(static_cast<int>(n));
        if (line_buffered_ && std::memchr(s, '\n', static_cast<std::size_t>(n)) && !drain())
            return 0;
        return n;
    }
    // Larger than the room left: what is buffered first, then this in one go.
    if (!drain())
        return 0;
    error_ = inflight::write_all(fd_, std::string_view(s, static_cast<std::size_t>(n)));
    return error_ == 0 ? n : 0;
}

int CheckedStdout::sync() { return drain() ? 0 : -1; }

} // namespace inflight_cli
