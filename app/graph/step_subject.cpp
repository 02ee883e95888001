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
// the end.
bool nameFollows(const QString &word, const inflight::GraphSnapshot &graph)
{
    static const QSet<QString> after_a_name{
        QStringLiteral("and"),   QStringLiteral("or"),      QStringLiteral("is"),     QStringLiteral("are"),
        QStringLiteral("was"),   QStringLiteral("has"),     QStringLiteral("had"),    QStringLiteral("holds"),
        QStringLiteral("keeps"), QStringLiteral("sent"),    QStringLiteral("sends"),  QStringLiteral("got"),
        QStringLiteral("gets"),  QStringLiteral("now"),     QStringLiteral("still"),  QStringLiteral("stays"),
        QStringLiteral("to"),    QStringLiteral("in"),      QStringLiteral("on"),     QStringLiteral("with"),
        QStringLiteral("from"),  QStringLiteral("reaches"), QStringLiteral("itself"), QStringLiteral("alone")};
    if (after_a_name.contains(word))
        return true;
    const QByteArray utf8 = word.toUtf8();
    const std::string_view w(utf8.constData(), static_cast<std::size_t>(utf8.size()));
    for (const auto &n : graph.nodes)
        if (graph.label_of(n) == w)
            return true;
    for (const auto &p : graph.processes)
        if (p.name == w)
            return true;
    return false;
}

bool namesSocketA(const QString &text, const inflight::GraphSnapshot &graph)
{
    static const QRegularExpression a(QStringLiteral("\\ba\\b(\\s+([a-z]+)\\b)?"));
    for (auto it = a.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        if (m.captured(2).isEmpty() || nameFollows(m.captured(2), graph))
            return true;
    }
    return false;
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
    if (words.contains(QStringLiteral("a")) && !namesSocketA(text, graph))
        words.remove(QStringLiteral("a"));
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
