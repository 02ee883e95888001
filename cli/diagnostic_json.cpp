// SPDX-License-Identifier: GPL-3.0-or-later
#include "diagnostic_json.hpp"

namespace inflight::cli {

nlohmann::json diagnostic_json(const inflight::Diagnostic &d)
{
    nlohmann::json fix = nullptr;
    if (d.fix)
        fix = {{"line", d.fix->line},
               {"col", d.fix->col},
               {"end_col", d.fix->end_col},
               {"replacement", d.fix->replacement}};
    return {{"file", d.file},
            {"line", d.loc.line},
            {"col", d.loc.col},
            {"end_col", d.end_col},
            {"severity", inflight::severity_word(d.severity)},
            {"message", d.message},
            {"text", d.format()},
            {"fix", std::move(fix)}};
}

std::string diagnostics_json(const std::vector<inflight::Diagnostic> &diagnostics)
{
    nlohmann::json list = nlohmann::json::array();
    for (const inflight::Diagnostic &d : diagnostics)
        list.push_back(diagnostic_json(d));
    return nlohmann::json{{"diagnostics", std::move(list)}}.dump(2, ' ', false,
                                                                 nlohmann::json::error_handler_t::replace) +
           "\n";
}

} // namespace inflight::cli
