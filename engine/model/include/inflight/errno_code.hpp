// SPDX-License-Identifier: GPL-3.0-or-later
// The errno values the modelled syscalls can return, with the kernel's names.
// Kept separate from <cerrno> so the engine's results are the same on every host.
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace inflight {

// Enumerators drop the leading E: <cerrno> defines EPERM and friends as macros.
enum class Errno : unsigned char {
    none = 0,
    perm,        // EPERM
    badf,        // EBADF
    again,       // EAGAIN
    inval,       // EINVAL
    mfile,       // EMFILE
    nospc,       // ENOSPC
    pipe,        // EPIPE
    notsock,     // ENOTSOCK
    prototype,   // EPROTOTYPE
    noprotoopt,  // ENOPROTOOPT
    opnotsupp,   // EOPNOTSUPP
    addrinuse,   // EADDRINUSE
    connreset,   // ECONNRESET
    isconn,      // EISCONN
    notconn,     // ENOTCONN
    toomanyrefs, // ETOOMANYREFS
    connrefused, // ECONNREFUSED
};

// The kernel's names of every errno but none, in the enum's order (kErrnoNames[e - 1]): the one
// list `expect error`, its completions and the reports read (constexpr so the language's static
// tables can point at it).
inline constexpr std::array<std::string_view, 17> kErrnoNames{
    "EPERM",      "EBADF",    "EAGAIN",     "EINVAL",       "EMFILE",      "ENOSPC",
    "EPIPE",      "ENOTSOCK", "EPROTOTYPE", "ENOPROTOOPT",  "EOPNOTSUPP",  "EADDRINUSE",
    "ECONNRESET", "EISCONN",  "ENOTCONN",   "ETOOMANYREFS", "ECONNREFUSED"};

// "EPERM", "EBADF", ...; "0" for none.
std::string_view errno_name(Errno e);
// A short description in the spirit of strerror().
std::string_view errno_text(Errno e);
// Parses a name such as "EPERM" (case-sensitive, as users read them in man pages).
std::optional<Errno> parse_errno(std::string_view name);

} // namespace inflight
