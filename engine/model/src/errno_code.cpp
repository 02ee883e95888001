// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/errno_code.hpp"

#include <array>

namespace inflight {
namespace {

struct ErrnoInfo {
    Errno code;
    std::string_view name;
    std::string_view text;
};

constexpr std::array<ErrnoInfo, 18> kErrnos{{
    {Errno::none, "0", "Success"},
    {Errno::perm, "EPERM", "Operation not permitted"},
    {Errno::badf, "EBADF", "Bad file descriptor"},
    {Errno::again, "EAGAIN", "Resource temporarily unavailable"},
    {Errno::inval, "EINVAL", "Invalid argument"},
    {Errno::mfile, "EMFILE", "Too many open files"},
    {Errno::nospc, "ENOSPC", "No space left on device"},
    {Errno::pipe, "EPIPE", "Broken pipe"},
    {Errno::notsock, "ENOTSOCK", "Socket operation on non-socket"},
    {Errno::prototype, "EPROTOTYPE", "Protocol wrong type for socket"},
    {Errno::noprotoopt, "ENOPROTOOPT", "Protocol not available"},
    {Errno::opnotsupp, "EOPNOTSUPP", "Operation not supported"},
    {Errno::addrinuse, "EADDRINUSE", "Address already in use"},
    {Errno::connreset, "ECONNRESET", "Connection reset by peer"},
    {Errno::isconn, "EISCONN", "Transport endpoint is already connected"},
    {Errno::notconn, "ENOTCONN", "Transport endpoint is not connected"},
    {Errno::toomanyrefs, "ETOOMANYREFS", "Too many references: cannot splice"},
    {Errno::connrefused, "ECONNREFUSED", "Connection refused"},
}};

} // namespace

std::string_view errno_name(Errno e) { return kErrnos[static_cast<std::size_t>(e)].name; }

std::string_view errno_text(Errno e) { return kErrnos[static_cast<std::size_t>(e)].text; }

std::optional<Errno> parse_errno(std::string_view name)
{
    for (const auto &info : kErrnos)
        if (info.code != Errno::none && info.name == name)
            return info.code;
    return std::nullopt;
}

} // namespace inflight
