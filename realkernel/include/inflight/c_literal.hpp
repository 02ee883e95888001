// SPDX-License-Identifier: GPL-3.0-or-later
// The one way bytes from a scene reach the C that export-c writes: as a string literal that no
// compiler phase can end early. Line splices (a backslash before CR or LF), trigraphs (`??/`
// under -std=c11 or -trigraphs) and escapes that swallow a following digit all need a byte this
// literal never contains unescaped.
#pragma once

#include <string>
#include <string_view>

namespace inflight {

// `bytes` as a C string literal, quotes included: printable ASCII other than `"`, `\` and `?`
// as it is; `\"` and `\\`; `?` as `\?`; every other byte (controls, NUL, DEL, UTF-8) as a
// three-digit octal escape. The literal holds only printable ASCII.
std::string c_literal(std::string_view bytes);

} // namespace inflight
