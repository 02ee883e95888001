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

// Scenes often call a socket "a", which is also English's article: "not a candidate" names
// no socket, "a and b are closed" names two. After the article comes a noun; after a name, in
// the narration's and the notes' sentences, another name, one of these words, punctuation or
// the end. Returns whether every "a" of `text` is the article, given the names it names.
bool aIsOnlyTheArticle(const QString &text, const QSet<QString> &names)
{
    static const QSet<QString> after_a_name{
        QStringLiteral("and"),   QStringLiteral("or"),      QStringLiteral("is"),     QStringLiteral("are"),
        QStringLiteral("was"),   QStringLiteral("has"),     QStringLiteral("had"),    QStringLiteral("holds"),
        QStringLiteral("keeps"), QStringLiteral("sent"),    QStringLiteral("sends"),  QStringLiteral("got"),
        QStringLiteral("gets"),  QStringLiteral("now"),     QStringLiteral("still"),  QStringLiteral("stays"),
        QStringLiteral("to"),    QStringLiteral("in"),      QStringLiteral("on"),     QStringLiteral("with"),
        QStringLiteral("from"),  QStringLiteral("reaches"), QStringLiteral("itself"), QStringLiteral("alone")};
    static const QRegularExpression a(QStringLiteral("\\ba\\b(\\s+([a-z]+)\\b)?"));
    for (auto it = a.globalMatch(text); it.hasNext();) {
        const QString next = it.next().captured(2);
        if (next.isEmpty() || after_a_name.contains(next) || names.contains(next))
            return false;
    }
    return true;
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
    QSet<QString> names; // the words that name a socket or a process
    std::vector<std::uint32_t> called_a;
    if (!words.isEmpty()) {
        for (const auto &n : graph.nodes) {
            const std::string_view label = graph.label_of(n);
            const QString name = QString::fromUtf8(label.data(), static_cast<qsizetype>(label.size()));
            if (label.empty() || !words.contains(name))
                continue;
            subject.sockets.push_back(n.sock);
            names.insert(name);
            if (label == "a")
                called_a.push_back(n.sock);
        }
        for (const auto &p : graph.processes)
            if (const QString name = QString::fromStdString(p.name); words.contains(name)) {
                subject.processes.push_back(p.id);
                names.insert(name);
            }
    }
    if (!called_a.empty() && aIsOnlyTheArticle(text, names)) {
        std::sort(called_a.begin(), called_a.end());
        std::erase_if(subject.sockets,
                      [&](std::uint32_t sock) { return std::binary_search(called_a.begin(), called_a.end(), sock); });
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
