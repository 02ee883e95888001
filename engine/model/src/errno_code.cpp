// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/errno_code.hpp"

#include <array>

namespace inflight {
namespace {

// Indexed by the enum's value (none first); the names are kErrnoNames.
constexpr std::array<std::string_view, kErrnoNames.size() + 1> kErrnoTexts{
    "Success",
    "Operation not permitted",
    "Bad file descriptor",
    "Resource temporarily unavailable",
    "Invalid argument",
    "Too many open files",
    "No space left on device",
    "Broken pipe",
    "Socket operation on non-socket",
    "Protocol wrong type for socket",
    "Protocol not available",
    "Operation not supported",
    "Address already in use",
    "Connection reset by peer",
    "Transport endpoint is already connected",
    "Transport endpoint is not connected",
    "Too many references: cannot splice",
    "Connection refused",
};
static_assert(static_cast<std::size_t>(Errno::connrefused) == kErrnoNames.size(), "one name per errno");

} // namespace

std::string_view errno_name(Errno e)
{
    return e == Errno::none ? std::string_view("0") : kErrnoNames[static_cast<std::size_t>(e) - 1];
}

std::string_view errno_text(Errno e) { return kErrnoTexts[static_cast<std::size_t>(e)]; }

std::optional<Errno> parse_errno(std::string_view name)
{
    for (std::size_t i = 0; i < kErrnoNames.size(); ++i)
        if (kErrnoNames[i] == name)
            return static_cast<Errno>(i + 1);
    return std::nullopt;
}

} // namespace inflight
