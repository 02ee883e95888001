// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/step_subject.h"

#include <QRegularExpression>
#include <QSet>

#include <algorithm>

namespace {

template <typename T>
void sortUnique(std::vector<T> &v)
{
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
}

} // namespace

StepSubject subjectOfText(const inflight::GraphSnapshot &graph, const QString &text, bool scc)
{
    StepSubject subject;
    // Words as the scene's names are written: letters, digits, '_' (u0, s3_17, skb#2 is not one).
    static const QRegularExpression word(QStringLiteral("[A-Za-z0-9_]+"));
    QSet<QString> words;
    for (auto it = word.globalMatch(text); it.hasNext();)
        words.insert(it.next().captured());
    if (!words.isEmpty()) {
        for (const auto &n : graph.nodes) {
            const std::string_view label = graph.label_of(n);
            if (!label.empty() && words.contains(QString::fromUtf8(label.data(), static_cast<qsizetype>(label.size()))))
                subject.sockets.push_back(n.sock);
        }
        for (const auto &p : graph.processes)
            if (words.contains(QString::fromStdString(p.name)))
                subject.processes.push_back(p.id);
    }
    sortUnique(subject.sockets);
    sortUnique(subject.processes);
    // "… the fd that keeps it alive": the processes holding a named socket.
    if (!subject.sockets.empty() && (words.contains(QStringLiteral("fd")) || words.contains(QStringLiteral("fds")))) {
        for (const auto &p : graph.processes) {
            if (std::binary_search(subject.processes.begin(), subject.processes.end(), p.id))
                continue;
            for (const auto &fd : p.fds)
                if (std::binary_search(subject.sockets.begin(), subject.sockets.end(), fd.sock)) {
                    subject.holders.push_back(p.id);
                    break;
                }
        }
    }
    if (scc) {
        for (const auto &n : graph.nodes)
            if (n.role == inflight::GcRole::scc_pending)
                subject.sockets.push_back(n.sock);
        sortUnique(subject.sockets);
    }
    sortUnique(subject.holders);
    return subject;
}
