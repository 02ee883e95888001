// SPDX-License-Identifier: GPL-3.0-or-later
// PlayerController's stop conditions: the Qt face (line numbers, texts, QSet) of the engine's
// one inflight::StopConditions, which continue, play and a reverse continue check.
#include "player_controller.h"

#include <algorithm>

using namespace inflight;

namespace {

// The breakpoint on `line`, if any (one per line, kept by line).
auto line_breakpoint(std::vector<LineBreakpoint> &lines, int line)
{
    return std::find_if(lines.begin(), lines.end(),
                        [line](const LineBreakpoint &l) { return static_cast<int>(l.line()) == line; });
}

} // namespace

QSet<int> PlayerController::lineBreakpoints() const
{
    QSet<int> out;
    for (const LineBreakpoint &l : stops_.lines)
        out.insert(static_cast<int>(l.line()));
    return out;
}

QSet<int> PlayerController::conditionalLineBreakpoints() const
{
    QSet<int> out;
    for (const LineBreakpoint &l : stops_.lines)
        if (l.condition())
            out.insert(static_cast<int>(l.line()));
    return out;
}

void PlayerController::toggleLineBreakpoint(int line)
{
    if (line < 1)
        return;
    if (auto it = line_breakpoint(stops_.lines, line); it != stops_.lines.end())
        stops_.lines.erase(it);
    else
        stops_.lines.emplace_back(static_cast<std::uint32_t>(line));
    emit lineBreakpointsChanged();
}

QString PlayerController::lineBreakpointCondition(int line) const
{
    for (const LineBreakpoint &l : stops_.lines)
        if (static_cast<int>(l.line()) == line && l.condition())
            return QString::fromStdString(l.condition()->text());
    return {};
}

bool PlayerController::setLineBreakpointCondition(int line, const QString &condition, QString *error)
{
    if (line < 1)
        return false;
    const QString trimmed = condition.trimmed();
    const QString text = trimmed.isEmpty() ? QString::number(line) : QStringLiteral("%1 if %2").arg(line).arg(trimmed);
    WatchError err;
    std::optional<LineBreakpoint> parsed = LineBreakpoint::parse(text.toStdString(), &err);
    if (!parsed) {
        if (error)
            *error = QString::fromStdString(err.format());
        return false;
    }
    if (auto it = line_breakpoint(stops_.lines, line); it != stops_.lines.end())
        *it = std::move(*parsed);
    else
        stops_.lines.push_back(std::move(*parsed));
    emit lineBreakpointsChanged();
    return true;
}

QStringList PlayerController::lineBreakpointTexts() const
{
    std::vector<const LineBreakpoint *> by_line;
    for (const LineBreakpoint &l : stops_.lines)
        by_line.push_back(&l);
    std::sort(by_line.begin(), by_line.end(), [](auto *x, auto *y) { return x->line() < y->line(); });
    QStringList out;
    for (const LineBreakpoint *l : by_line)
        out << QString::fromStdString(l->text());
    return out;
}

void PlayerController::setLineBreakpointTexts(const QStringList &texts)
{
    std::vector<LineBreakpoint> lines;
    for (const QString &t : texts) {
        std::optional<LineBreakpoint> parsed = LineBreakpoint::parse(t.toStdString());
        if (!parsed || parsed->line() == 0)
            continue; // a settings file is untrusted: what does not parse is not a breakpoint
        if (auto it = line_breakpoint(lines, static_cast<int>(parsed->line())); it != lines.end())
            *it = std::move(*parsed);
        else
            lines.push_back(std::move(*parsed));
    }
    std::sort(lines.begin(), lines.end(), [](const auto &x, const auto &y) { return x.line() < y.line(); });
    QStringList wanted;
    for (const LineBreakpoint &l : lines)
        wanted << QString::fromStdString(l.text());
    if (wanted == lineBreakpointTexts())
        return;
    stops_.lines = std::move(lines);
    emit lineBreakpointsChanged();
}

bool PlayerController::addWatch(const QString &expr, QString *error)
{
    WatchError err;
    std::optional<Watch> w = Watch::parse(expr.toStdString(), &err);
    if (!w) {
        if (error)
            *error = QString::fromStdString(err.format());
        return false;
    }
    stops_.watches.emplace_back(std::move(*w));
    if (player_)
        stops_.watches.back().reset(kernel());
    emit watchesChanged();
    return true;
}

void PlayerController::removeWatch(int index)
{
    if (index < 0 || index >= watchCount())
        return;
    stops_.watches.erase(stops_.watches.begin() + index);
    emit watchesChanged();
}

QString PlayerController::watchText(int index) const
{
    if (index < 0 || index >= watchCount())
        return {};
    return QString::fromStdString(stops_.watches[static_cast<std::size_t>(index)].watch().text());
}

QString PlayerController::watchValue(int index) const
{
    if (index < 0 || index >= watchCount() || !player_)
        return {};
    return QString::fromStdString(stops_.watches[static_cast<std::size_t>(index)].current(kernel()));
}

void PlayerController::primeWatches()
{
    if (player_)
        stops_.start(kernel());
}

bool PlayerController::stopsAt(const Event &e, QString *why)
{
    if (!player_)
        return false;
    std::optional<std::string> stop = stops_.check(e, kernel());
    if (stop && why)
        *why = QString::fromStdString(*stop);
    return stop.has_value();
}
