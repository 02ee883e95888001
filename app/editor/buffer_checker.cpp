// SPDX-License-Identifier: GPL-3.0-or-later
#include "buffer_checker.h"

#include <QElapsedTimer>

namespace editor {

BufferChecker::BufferChecker(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<editor::CheckResult>();
    timer_.setSingleShot(true);
    timer_.setTimerType(Qt::PreciseTimer); // the pause is what the user waits, not a coarse 5% of it
    timer_.setInterval(kDefaultPauseMs);
    connect(&timer_, &QTimer::timeout, this, [this] {
        if (source_)
            start(source_());
    });
}

void BufferChecker::supersede()
{
    timer_.stop();
    jobs_.cancel();
}

void BufferChecker::changed(std::function<QByteArray()> text)
{
    source_ = std::move(text);
    jobs_.cancel(); // an older check still running is now stale
    timer_.start();
}

void BufferChecker::checkNow(const QByteArray &text)
{
    timer_.stop();
    start(text);
}

void BufferChecker::start(const QByteArray &text)
{
    // A newer check supersedes the one running: only the newest result arrives.
    jobs_.start(
        [text, name = file_name_.toStdString()](const JobControl &control) {
            QElapsedTimer clock;
            clock.start();
            auto parsed = std::make_shared<inflight::ParseResult>(
                inflight::parse_scene(std::string_view(text.constData(), static_cast<std::size_t>(text.size())), name));
            return CheckResult{control.generation(), text, std::move(parsed), clock.nsecsElapsed() / 1000};
        },
        [this](const CheckResult &r) { emit checked(r); });
}

} // namespace editor
