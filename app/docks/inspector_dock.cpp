// SPDX-License-Identifier: GPL-3.0-or-later
#include "inspector_dock.h"

#include "dock_common.h"

#include "../player_controller.h"
#include "../theme.h"

#include "inflight/graph_snapshot.hpp"
#include "inflight/socket_detail.hpp"
#include "inflight/step_snapshot.hpp"
#include "inflight/why_alive.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QTreeWidget>
#include <QVBoxLayout>

using namespace inflight;

namespace docks {

namespace {

QString s(std::string_view v) { return QString::fromUtf8(v.data(), static_cast<qsizetype>(v.size())); }

QString flags_text(unsigned f)
{
    QStringList out;
    if (f & UNIX_GC_CANDIDATE)
        out << QStringLiteral("CANDIDATE");
    if (f & UNIX_GC_MAYBE_CYCLE)
        out << QStringLiteral("MAYBE_CYCLE");
    return out.isEmpty() ? QStringLiteral("none") : out.join(QLatin1Char('|'));
}

} // namespace

InspectorDock::InspectorDock(PlayerController &controller, QWidget *parent)
    : QDockWidget(tr("Inspector"), parent), controller_(controller)
{
    setObjectName(QStringLiteral("inspectorDock"));
    auto *body = new QWidget(this);
    auto *layout = new QVBoxLayout(body);
    layout->setContentsMargins(6, 4, 6, 4);
    search_ = new QLineEdit(body);
    search_->setPlaceholderText(tr("Type a socket label and press Enter…"));
    search_->setClearButtonEnabled(true);
    search_->setToolTip(tr("Select a socket by its label (a, s2, embryo(c))."));
    layout->addWidget(search_);
    header_ = new QLabel(body);
    header_->setWordWrap(true);
    layout->addWidget(header_);
    // The answer to "why is it alive?" is a sentence or three: a tree cell would elide it, a
    // wrapped label keeps all of it readable at projector size.
    why_ = new QLabel(body);
    why_->setObjectName(QStringLiteral("whyAlive"));
    why_->setWordWrap(true);
    why_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    why_->setTextFormat(Qt::PlainText);
    why_->hide();
    layout->addWidget(why_);
    tree_ = new QTreeWidget(body);
    tree_->setColumnCount(2);
    tree_->setHeaderLabels({tr("Field"), tr("Value")});
    tree_->setRootIsDecorated(true);
    tree_->setUniformRowHeights(false);
    tree_->setWordWrap(true);
    tree_->setSelectionMode(QAbstractItemView::NoSelection);
    tree_->header()->setStretchLastSection(true);
    tree_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    layout->addWidget(tree_, 1);
    setWidget(body);

    connect(search_, &QLineEdit::returnPressed, this, [this] {
        if (!controller_.hasScene())
            return;
        if (const auto id = controller_.findSocket(search_->text()))
            controller_.selectSocket(*id);
        else
            header_->setText(tr("No socket is labelled “%1” at this step.").arg(search_->text().trimmed()));
    });
    connect(tree_, &QTreeWidget::itemCollapsed, this,
            [this](QTreeWidgetItem *i) { collapsed_[i->data(0, Qt::UserRole).toString()] = true; });
    connect(tree_, &QTreeWidget::itemExpanded, this,
            [this](QTreeWidgetItem *i) { collapsed_[i->data(0, Qt::UserRole).toString()] = false; });
    connect(&controller_, &PlayerController::positionChanged, this, &InspectorDock::refresh);
    connect(&controller_, &PlayerController::selectionChanged, this, &InspectorDock::refresh);
    connect(&controller_, &PlayerController::sceneLoaded, this, [this] {
        shown_.reset(); // another run: nothing to compare with
        refresh();
    });
    connect(&Theme::instance(), &Theme::changed, this, &InspectorDock::applyTheme);
    applyTheme();
    refresh();
}

// "Why is it alive?": the chain of references from a process fd, or the collector's reason
// (engine/why_alive), in plain words. From the state alone: the player keeps no per-socket
// history, so "since it became unreachable" is the CLI's (`inflight-cli why`).
InspectorDock::Field InspectorDock::whyField(const SocketDetail &d) const
{
    const StepSnapshot &k = controller_.snapshot();
    Field why{QStringLiteral("why"),
              tr("Why is it alive?"),
              QString(),
              tr("What keeps this socket from being released: the shortest chain of references from a "
                 "process's fd (through messages waiting in receive queues), or, when no fd reaches it, "
                 "why the collector leaves it, in the kernel's own terms."),
              {},
              {}};
    // A BFS over every queue per step: past this size the section would cost more than a step.
    if (!d.why) {
        why_text_.clear();
        why.value = tr("not worked out for scenes of more than %L1 sockets (inflight-cli why does it)")
                        .arg(SocketDetail::kWhySockets);
        return why;
    }
    const WhyAlive &w = *d.why;
    QString reason = s(w.reason);
    if (!reason.isEmpty())
        reason[0] = reason[0].toUpper();
    why_text_ = tr("Why is it alive? ") + reason;
    if (!w.collector_view.empty())
        why_text_ += tr("\nThe collector: ") + s(w.collector_view);
    switch (w.verdict) {
    case WhyVerdict::reachable:
        why.value = w.chain.size() == 1 ? tr("a process has it open")
                                        : tr("a process reaches it through %n message(s) in flight", nullptr,
                                             static_cast<int>(w.chain.size() - 1));
        break;
    case WhyVerdict::pending_release: why.value = tr("nothing holds it: its release is pending"); break;
    case WhyVerdict::awaiting_gc: why.value = tr("garbage: the next collection frees it"); break;
    case WhyVerdict::left_by_gc: why.value = tr("unreachable, but the collector keeps it"); break;
    case WhyVerdict::gc_running: why.value = tr("the running collection has not decided yet"); break;
    case WhyVerdict::released: why.value = tr("it is not: released (%1)").arg(s(w.rule)); break;
    }
    for (std::size_t i = 0; i < w.chain.size(); ++i) {
        const WhyHop &h = w.chain[i];
        why.children.push_back({QStringLiteral("hop%1").arg(i),
                                i == 0 ? tr("held by") : tr("then"),
                                s(h.text) + QStringLiteral(" → ") + label(k, h.to),
                                h.kind == WhyHop::Kind::fd ? tr("A file descriptor in a process's table.")
                                                           : tr("A message waiting in a receive queue: whoever "
                                                                "can read that queue can receive this socket."),
                                {},
                                {}});
    }
    if (w.verdict != WhyVerdict::reachable)
        why.children.push_back({QStringLiteral("rule"),
                                tr("rule"),
                                s(w.rule),
                                tr("The check that decided, named as in the kernel."),
                                {},
                                {}});
    why.children.push_back({QStringLiteral("reason"),
                            tr("because"),
                            s(w.reason),
                            tr("The explanation, with the values the collector compares (in full above the "
                               "tree)."),
                            {},
                            {}});
    if (!w.collector_view.empty())
        why.children.push_back({QStringLiteral("collector"),
                                tr("the collector"),
                                s(w.collector_view),
                                tr("It is in flight as well: what a collection run now would rule about it (%1).")
                                    .arg(s(w.collector_rule)),
                                {},
                                {}});
    return why;
}

std::vector<InspectorDock::Field> InspectorDock::build(const SocketDetail &u) const
{
    const StepSnapshot &k = controller_.snapshot();
    const std::uint32_t id = u.sock;
    const bool graph = k.era == GcEra::graph;
    std::vector<Field> out;

    // ---- identity
    Field ident{QStringLiteral("socket"), tr("Socket"), QString(), tr("Who this socket is."), {}, {}};
    QStringList others;
    for (const std::string &n : u.other_labels)
        others << s(n);
    ident.children.push_back(
        {QStringLiteral("label"),
         tr("label"),
         label(k, id) + (others.isEmpty() ? QString() : tr(" (also %1)").arg(others.join(QStringLiteral(", ")))),
         tr("The name the scene created it with. It stays with the socket even after its fd is "
            "closed; accept() adds the accepted fd's name as a second label."),
         {},
         {}});
    ident.children.push_back({QStringLiteral("type"),
                              tr("type"),
                              s(sock_type_name(u.type)),
                              tr("SOCK_STREAM, SOCK_DGRAM or SOCK_SEQPACKET."),
                              {},
                              {}});
    QString state = s(sock_state_name(u.state));
    if (u.state == SockState::embryo)
        state += tr(" (not accepted)");
    if (u.released)
        state += tr(" · released (%1)").arg(s(freed_by_name(u.freed_by)));
    ident.children.push_back({QStringLiteral("state"),
                              tr("state"),
                              state,
                              tr("Its connection state. “Released” means unix_release_sock() has run: the socket "
                                 "is gone, and how it went (closed, collected as garbage, or taken along by "
                                 "another release)."),
                              {},
                              {}});
    ident.children.push_back({QStringLiteral("peer"),
                              tr("peer"),
                              u.peer != npos ? label(k, u.peer) : tr("none"),
                              tr("The socket at the other end (unix_peer()). For an embryo: the client that "
                                 "connected."),
                              {},
                              {}});
    const std::string &addr = u.address;
    ident.children.push_back({QStringLiteral("address"),
                              tr("address"),
                              addr.empty() ? tr("none") : QStringLiteral("@") + QString::fromStdString(addr),
                              tr("The abstract name it is bound to (bind or autobind), if any."),
                              {},
                              {}});
    ident.children.push_back({QStringLiteral("owner"),
                              tr("owner"),
                              QString::fromStdString(u.owner),
                              tr("The user that created it. The fds a user has in flight are counted against "
                                 "that user's limit."),
                              {},
                              {}});
    if (u.state == SockState::embryo) {
        const QString listener = u.listener != npos ? label(k, u.listener) : tr("none");
        ident.children.push_back({QStringLiteral("listener"),
                                  tr("listener"),
                                  listener,
                                  tr("The listening socket whose queue holds this embryo's connection request. "
                                     "Until accept(), fds sent to the embryo count as the listener's."),
                                  {},
                                  {}});
    }
    QStringList fds;
    for (const OpenFd &o : u.fds) {
        const QString n = QString::fromStdString(o.name);
        fds << tr("%1: fd %2%3")
                   .arg(QString::fromStdString(o.process))
                   .arg(o.fd)
                   .arg(n.isEmpty() ? QString() : QStringLiteral(" (") + n + QStringLiteral(")"));
    }
    ident.children.push_back({QStringLiteral("fds"),
                              tr("open fds"),
                              fds.isEmpty() ? tr("none") : fds.join(QStringLiteral(", ")),
                              tr("The processes' file descriptors that point at it. With none left, only "
                                 "in-flight copies can keep it alive."),
                              {},
                              {}});
    out.push_back(std::move(ident));

    // ---- Run > On this kernel: what the real kernel did with this socket
    if (auto it = kernel_verdicts_.find(s(u.label)); it != kernel_verdicts_.end())
        out.push_back({QStringLiteral("kernel"),
                       tr("On this kernel"),
                       it.value(),
                       tr("The scene replayed with real syscalls on %1 in a fresh network namespace: this "
                          "socket's fate at the end of the scene, beside the model's.")
                           .arg(kernel_name_),
                       {},
                       {}});

    // ---- why is it alive?
    out.push_back(whyField(u));

    // ---- references
    Field refs{QStringLiteral("refs"),
               tr("References"),
               QString(),
               tr("Who holds the socket's file: the collector compares these counts."),
               {},
               {}};
    if (u.has_file) {
        refs.children.push_back({QStringLiteral("file_refs"),
                                 tr("file refs"),
                                 QString::number(u.file_refs),
                                 tr("file_count(): every reference to its file — open fds, copies in flight in "
                                    "receive queues, and short-lived ones (a send in progress, a peeked copy)."),
                                 {},
                                 {}});
        refs.children.push_back({QStringLiteral("fd_refs"),
                                 tr("· from fds"),
                                 QString::number(u.fd_refs),
                                 tr("How many of those references are fds in some process."),
                                 {},
                                 {}});
        refs.children.push_back({QStringLiteral("inflight_refs"),
                                 tr("· in flight"),
                                 QString::number(u.fp_refs),
                                 tr("How many are copies carried by messages (SCM_RIGHTS) not yet received."),
                                 {},
                                 {}});
    } else {
        refs.children.push_back({QStringLiteral("file_refs"),
                                 tr("file refs"),
                                 tr("no file"),
                                 tr("An embryo has no file until accept() gives it one."),
                                 {},
                                 {}});
    }
    out.push_back(std::move(refs));

    // ---- the collector's view
    Field gc{
        QStringLiteral("gc"), tr("Collector"), QString(), tr("What the garbage collector knows about it."), {}, {}};
    const GcRole role = u.role;
    gc.children.push_back({QStringLiteral("role"),
                           tr("role now"),
                           s(gc_role_name(role)),
                           tr("Its part in the collection at this step; the colour is the one the graph uses."),
                           Theme::instance().roleColor(role),
                           {}});
    if (!graph) {
        gc.children.push_back({QStringLiteral("inflight"),
                               tr("inflight"),
                               QString::number(u.inflight),
                               tr("u->inflight: copies of its file sitting in receive queues. During a collection "
                                  "the collector subtracts the copies held by other candidates: what is left "
                                  "counts references from outside."),
                               {},
                               {}});
        gc.children.push_back({QStringLiteral("gc_flags"),
                               tr("GC flags"),
                               flags_text(u.gc_flags),
                               tr("CANDIDATE: every reference is in flight, it might be garbage. MAYBE_CYCLE: "
                                  "not yet shown reachable during the restore walk."),
                               {},
                               {}});
        gc.children.push_back({QStringLiteral("list"),
                               tr("on list"),
                               u.on == ListId::none ? tr("none") : s(list_name(u.on)),
                               tr("Which of the collector's lists u->link is on."),
                               {},
                               {}});
    } else {
        const bool v = u.has_vertex;
        gc.children.push_back({QStringLiteral("out_degree"),
                               tr("out_degree"),
                               v ? QString::number(u.out_degree) : tr("0 (no vertex)"),
                               tr("The vertex's edges: one per copy of its file in flight. A socket has a vertex "
                                  "only while in flight."),
                               {},
                               {}});
        if (v) {
            gc.children.push_back({QStringLiteral("index"),
                                   tr("index"),
                                   QString::number(u.index),
                                   tr("Tarjan's visit order in the current walk (or the unvisited/grouped mark "
                                      "between walks)."),
                                   {},
                                   {}});
            gc.children.push_back({QStringLiteral("scc_index"),
                                   tr("scc_index"),
                                   QString::number(u.scc_index),
                                   tr("The low-link: the smallest index reachable from it through the stack. Members "
                                      "of one SCC end with the same scc_index."),
                                   {},
                                   {}});
            gc.children.push_back({QStringLiteral("vertex_list"),
                                   tr("vertex list"),
                                   u.on_visited_list ? tr("visited") : tr("unvisited"),
                                   tr("Which list the walk keeps the vertex on."),
                                   {},
                                   {}});
            if (const int verdict = u.verdict; verdict >= 0)
                gc.children.push_back({QStringLiteral("verdict"),
                                       tr("SCC verdict"),
                                       verdict ? tr("dead") : tr("alive"),
                                       tr("What this collection decided about its SCC."),
                                       {},
                                       {}});
        }
    }
    gc.children.push_back({QStringLiteral("nr_fds"),
                           tr("fds queued to it"),
                           graph ? tr("%1 (AF_UNIX: %2)").arg(u.nr_fds).arg(u.nr_unix_fds) : QString::number(u.nr_fds),
                           tr("scm_stat: how many fds the messages in its own receive queue carry."),
                           {},
                           {}});
    out.push_back(std::move(gc));

    // ---- receive queue
    Field queue{QStringLiteral("queue"),
                tr("Receive queue"),
                u.queue.empty()       ? tr("empty")
                : u.queue.size() == 1 ? tr("1 skb")
                                      : tr("%1 skbs").arg(u.queue.size()),
                tr("The messages waiting in its receive queue, first to be read at the top, with the files each "
                   "carries. A socket whose file sits in this queue is held by this socket."),
                {},
                {}};
    int i = 0;
    for (const QueuedSkb &queued : u.queue) {
        const SkbEntry &skb = queued.skb;
        QStringList marks;
        if (skb.oob_mark)
            marks << tr("OOB mark (u->oob_skb)");
        else if (skb.oob)
            marks << tr("OOB byte");
        if (skb.consumed)
            marks << tr("already read");
        if (skb.users > 1)
            marks << tr("%1 references").arg(skb.users);
        QString v = skbText(k, skb);
        if (skb.sender != npos && skb.connecting == npos)
            v += tr("  (from %1)").arg(label(k, skb.sender));
        if (!marks.isEmpty())
            v += QStringLiteral("  [") + marks.join(QStringLiteral(", ")) + QStringLiteral("]");
        Field f{
            QString::number(i),
            tr("#%1").arg(i + 1),
            v,
            tr("skb#%1, %2 byte(s). Its files stay in flight until it is received or freed.").arg(skb.id).arg(skb.len),
            {},
            {}};
        // A connection request: the embryo's own queue is where fds sent to it wait, and what
        // the collector scans for a listener.
        if (skb.connecting != npos) {
            int j = 0;
            for (const SkbEntry &inner : queued.embryo_queue) {
                f.children.push_back({QString::number(j),
                                      tr("%1's #%2").arg(label(k, skb.connecting)).arg(j + 1),
                                      skbText(k, inner),
                                      tr("A message waiting in the unaccepted embryo's queue. The collector counts "
                                         "the files it carries as held by the listener."),
                                      {},
                                      {}});
                ++j;
            }
        }
        queue.children.push_back(std::move(f));
        ++i;
    }
    out.push_back(std::move(queue));

    // ---- where its own file is in flight
    Field where{QStringLiteral("in_flight"),
                tr("Its file in flight"),
                QString(),
                tr("Every message that carries a copy of this socket's file, and whose queue holds it: those "
                   "sockets (or the hitlist) keep it alive."),
                {},
                {}};
    int copies = 0;
    for (const FileInFlight &c : u.in_flight) {
        const int n = c.copies;
        copies += n;
        where.children.push_back(
            {QStringLiteral("skb%1").arg(c.skb),
             c.queue_of != npos ? tr("in %1's queue").arg(label(k, c.queue_of)) : tr("on the hitlist"),
             tr("skb#%1%2").arg(c.skb).arg(n > 1 ? tr(" (×%1)").arg(n) : QString()),
             tr("A message carrying this socket's file."),
             {},
             {}});
    }
    where.value = copies == 0 ? tr("not in flight") : copies == 1 ? tr("1 copy") : tr("%1 copies").arg(copies);
    out.push_back(std::move(where));
    return out;
}

void InspectorDock::fill(QTreeWidgetItem *item, const Field &f, const QString &key, bool top)
{
    auto set = [](QTreeWidgetItem *i, int col, const QString &t) {
        if (i->text(col) != t)
            i->setText(col, t);
    };
    set(item, 0, f.name);
    set(item, 1, f.value);
    QString tip = f.value.isEmpty() ? f.tip : f.value + QStringLiteral("\n\n") + f.tip;
    auto prev = baseline_.constFind(key);
    const bool changed = prev != baseline_.cend() && *prev != f.value;
    if (changed)
        tip += tr("\nChanged at this step (was: %1).").arg(*prev);
    item->setToolTip(0, f.tip);
    item->setToolTip(1, tip);
    item->setData(0, Qt::UserRole, key);
    item->setData(1, Qt::DecorationRole, f.swatch.isValid() ? QVariant(f.swatch) : QVariant());
    const QFont font = rowFont(top);
    if (item->font(0) != font) {
        item->setFont(0, font);
        item->setFont(1, font);
    }
    item->setBackground(1, changed ? QBrush(touchedBackground()) : QBrush());
}

void InspectorDock::addItems(QTreeWidgetItem *parent, const std::vector<Field> &fields, const QString &prefix)
{
    for (const Field &f : fields) {
        const QString key = prefix.isEmpty() ? f.key : prefix + QLatin1Char('/') + f.key;
        auto *item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(tree_);
        fill(item, f, key, !parent);
        items_.insert(key, item);
        keys_.push_back(key);
        if (!f.children.empty())
            addItems(item, f.children, key);
        if (!f.children.empty())
            item->setExpanded(!collapsed_.value(key, false));
    }
}

void InspectorDock::updateItems(const std::vector<Field> &fields, const QString &prefix, bool top)
{
    for (const Field &f : fields) {
        const QString key = prefix.isEmpty() ? f.key : prefix + QLatin1Char('/') + f.key;
        fill(items_.value(key), f, key, top);
        updateItems(f.children, key, false);
    }
}

namespace {
void keys_of(const std::vector<InspectorDock::Field> &fields, const QString &prefix, QStringList &out)
{
    for (const auto &f : fields) {
        const QString key = prefix.isEmpty() ? f.key : prefix + QLatin1Char('/') + f.key;
        out.push_back(key);
        keys_of(f.children, key, out);
    }
}
} // namespace

void InspectorDock::setKernelVerdicts(const QHash<QString, QString> &by_label, const QString &kernel)
{
    kernel_verdicts_ = by_label;
    kernel_name_ = kernel;
    refresh();
}

void InspectorDock::refresh()
{
    const auto sel = controller_.hasScene() ? controller_.selectedSocket() : std::nullopt;
    const SocketDetail *detail = controller_.hasScene() ? controller_.selectedDetail() : nullptr;
    const bool valid = sel && detail;
    if (!valid) {
        tree_->clear();
        items_.clear();
        keys_.clear();
        header_->setText(
            sel ? tr("The selected socket does not exist at this step.")
                : tr("No socket selected. Click a socket in the graph or in a list, or type its label above."));
        why_->hide();
        baseline_.clear();
        current_.clear();
        shown_.reset();
        return;
    }
    const std::uint64_t pos = controller_.position();
    // Changed values are marked against the position shown before this one, for the same socket.
    if (shown_ != sel) {
        baseline_.clear();
        current_.clear();
    } else if (pos != shown_pos_) {
        baseline_ = current_;
    }
    const std::vector<Field> fields = build(*detail);
    QStringList keys;
    keys_of(fields, QString(), keys);
    if (keys == keys_) {
        // The same fields (the usual micro-step): values change in place, nothing moves.
        updateItems(fields, QString(), true);
    } else {
        const int scroll = tree_->verticalScrollBar()->value();
        tree_->setUpdatesEnabled(false);
        tree_->clear();
        items_.clear();
        keys_.clear();
        addItems(nullptr, fields, QString());
        tree_->verticalScrollBar()->setValue(scroll);
        tree_->setUpdatesEnabled(true);
    }
    header_->setText(tr("%1 at step %2").arg(label(controller_.snapshot(), *sel)).arg(pos));
    why_->setText(why_text_);
    why_->setVisible(!why_text_.isEmpty());
    current_.clear();
    for (auto it = items_.cbegin(); it != items_.cend(); ++it)
        current_.insert(it.key(), it.value()->text(1));
    shown_ = sel;
    shown_pos_ = pos;
}

QTreeWidgetItem *InspectorDock::field(const QString &key) const { return items_.value(key, nullptr); }

QString InspectorDock::value(const QString &key) const
{
    const QTreeWidgetItem *i = field(key);
    return i ? i->text(1) : QString();
}

void InspectorDock::applyTheme()
{
    const Theme &t = Theme::instance();
    search_->setFont(t.font(kRowPoints));
    if (widget())
        widget()->setMinimumWidth(QFontMetrics(rowFont()).averageCharWidth() * 16);
    header_->setFont(t.font(kTitlePoints, true));
    why_->setFont(t.font(kRowPoints));
    tree_->header()->setFont(t.font(kRowPoints * 0.9, true));
    QPalette p = tree_->palette();
    p.setColor(QPalette::Base, t.background());
    p.setColor(QPalette::Text, t.foreground());
    tree_->setPalette(p);
    refresh();
}

} // namespace docks
