// SPDX-License-Identifier: GPL-3.0-or-later
#include "lesson/scene_note.h"

namespace lesson {

const inflight::Statement *noteOnLine(const std::vector<inflight::Statement> &statements, std::uint32_t line)
{
    for (const inflight::Statement &s : statements) {
        if (s.op == inflight::Op::note && s.loc.line == line)
            return &s;
        if (s.op == inflight::Op::repeat)
            if (const inflight::Statement *inner = noteOnLine(s.body, line))
                return inner;
    }
    return nullptr;
}

} // namespace lesson
