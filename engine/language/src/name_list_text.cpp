// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/name_list_text.hpp"

namespace inflight {

std::string name_list_text(std::size_t count, const std::function<std::string(std::size_t)> &name_at,
                           const char *last_joiner)
{
    std::string out;
    const bool whole = count <= kNamesSaidWhole;
    const std::size_t first = whole ? count : kNamesSaidFirst;
    for (std::size_t i = 0; i < first; ++i) {
        if (i > 0)
            out += whole && i + 1 == count ? last_joiner : ", ";
        out += name_at(i);
    }
    if (!whole)
        out += std::string(", …") + last_joiner + name_at(count - 1);
    return out;
}

} // namespace inflight
