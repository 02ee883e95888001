// SPDX-License-Identifier: GPL-3.0-or-later
// What the docks share: which fields of an event name sockets, labels as QString, the item-data
// roles their models answer, the groups of event kinds the log filters by, and font sizes.
#pragma once

#include "inflight/event.hpp"

#include <QColor>
#include <QFont>
#include <QString>

class QScrollArea;
class QWidget;

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace inflight {
class Kernel;
class RunNames;
struct Scene;
struct SkbEntry;
struct Statement;
struct StepSnapshot;
} // namespace inflight

namespace docks {

// Item-data roles of every dock model (besides the Qt ones).
enum Role : int {
    SockRole = 0x0100 + 1, // Qt::UserRole + 1: the socket a click selects (uint, or invalid)
    TouchedRole,           // bool: the current micro-step touched this row
    SelectedRole,          // bool: the row is about the selected socket
    RowKindRole,           // int: the row's kind (model-specific)
    EventStepRole,         // event log: the event's step (qulonglong)
};

// Point sizes at font scale 1; Theme scales them (presentation mode).
inline constexpr double kRowPoints = 12.0;   // list rows, inspector
inline constexpr double kTitlePoints = 11.5; // section titles
inline constexpr double kCodePoints = 11.5;  // pseudo-code and scene text
inline constexpr double kNarrationPoints = 16.0;
inline constexpr double kNotePoints = 13.0;
inline constexpr double kLogPoints = 10.5;

// The socket ids an event names, in a, b, c order; npos where the field is not a socket
// (an skb id, a process, an fd, a run number, a count).
std::array<std::uint32_t, 3> eventSockets(const inflight::Event &e);
bool eventInvolves(const inflight::Event &e, std::uint32_t sock);
// The event's `a` when it is a socket, else npos.
std::uint32_t eventSockA(const inflight::Event &e);
// The event's skb (its `a`) for the skb events, else npos.
std::uint32_t eventSkb(const inflight::Event &e);

// The engine's names (string_view, not necessarily NUL-terminated) as QString.
inline QString qs(std::string_view v) { return QString::fromUtf8(v.data(), static_cast<qsizetype>(v.size())); }

// "-" for npos.
QString label(const inflight::StepSnapshot &s, std::uint32_t sock);
// A socket by any of its labels ("a", "s2", "embryo(c)") in a finished run's kernel (the
// event log names sockets by the run's end), or nullopt.
std::optional<std::uint32_t> findLabel(const inflight::Kernel &k, const QString &label);
std::optional<std::uint32_t> findLabel(const inflight::RunNames &names, const QString &label);
// "b, c": the labels of the sockets whose files an skb carries ("" when none).
QString carriedLabels(const inflight::StepSnapshot &s, const inflight::SkbEntry &skb);
// "skb#12 → b, c" (or "skb#12 (no fds)").
QString skbText(const inflight::StepSnapshot &s, const inflight::SkbEntry &skb);
// The statement that starts on `line` (searching repeat bodies too), or nullptr.
const inflight::Statement *statementOnLine(const inflight::Scene &scene, std::uint32_t line);

// Row colours: the current micro-step's row, and the selected socket's rows.
QColor touchedBackground();
QColor selectedBackground();
QColor selectedForeground();
QFont rowFont(bool bold = false);

// `body` in a frameless vertical scroll area: a dock squeezed below what its content needs
// (large text on a small screen) scrolls instead of letting labels overlap.
QScrollArea *scrollable(QWidget *body, QWidget *parent);

// The event log's kind filter: a named set of kinds (bit i = EventKind i).
struct KindGroup {
    QString name;
    QString tip;
    std::uint64_t mask;
};
const std::vector<KindGroup> &kindGroups();
inline constexpr std::uint64_t kindBit(inflight::EventKind k) { return std::uint64_t{1} << static_cast<unsigned>(k); }
inline constexpr std::uint64_t kAllKinds = ~std::uint64_t{0};
int eventKindCount();

} // namespace docks
