// SPDX-License-Identifier: GPL-3.0-or-later
#include "run_progress.hpp"

#include "inflight/report.hpp"
#include "inflight/simulation.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <unistd.h>

namespace inflight::cli {

std::optional<double> parse_timeout_seconds(const char *text)
{
    // Decimal seconds as a person writes them ("3", "0.5"): strtod alone would also take
    // leading spaces, a sign, hexadecimal and exponents.
    const std::string_view digits(text);
    if (digits.empty() || digits.find_first_not_of("0123456789.") != std::string_view::npos ||
        digits.find('.') != digits.rfind('.') || digits == ".")
        return std::nullopt;
    char *end = nullptr;
    const double t = std::strtod(text, &end);
    if (!end || end == text || *end || !(t > 0) || t > 1e9)
        return std::nullopt;
    return t;
}

RunProgress::RunProgress(std::optional<double> timeout_s)
    : timeout_s_(timeout_s), tty_(isatty(STDERR_FILENO) == 1), start_(std::chrono::steady_clock::now()),
      last_draw_(start_)
{ }

bool RunProgress::slow_tick(const Simulation &sim)
{
    const auto now = std::chrono::steady_clock::now();
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    if (timeout_s_ && elapsed >= *timeout_s_) {
        timed_out_ = true;
        return false;
    }
    // Only a run long enough to wonder about shows progress, at most five times a second.
    if (tty_ && elapsed >= 0.5 && now - last_draw_ >= std::chrono::milliseconds(200)) {
        last_draw_ = now;
        std::fprintf(stderr, "\r\033[Kinflight-cli: %s micro-steps, line %u, %llu statements, modelled %s, %.0f s",
                     group_digits(sim.steps()).c_str(), sim.current_line(),
                     static_cast<unsigned long long>(sim.statements_executed()), format_ns(sim.now_ns()).c_str(),
                     elapsed);
        std::fflush(stderr);
        drawn_ = true;
    }
    return true;
}

void RunProgress::done()
{
    if (drawn_) {
        std::fputs("\r\033[K", stderr);
        std::fflush(stderr);
        drawn_ = false;
    }
}

Diagnostic RunProgress::timeout_diagnostic(const Simulation &sim, std::string_view outcome) const
{
    Diagnostic d;
    d.file = sim.scene().file;
    d.loc = sim.current_loc();
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%g", timeout_s_.value_or(0));
    d.message = std::string("--timeout ") + seconds + " s reached at micro-step " + group_digits(sim.steps()) +
                ", in this statement; " + std::string(outcome);
    return d;
}

} // namespace inflight::cli
