// SPDX-License-Identifier: GPL-3.0-or-later
#include "buffer_checker.h"

#include "../background_job.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QMetaObject>
#include <QPointer>

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

BufferChecker::~BufferChecker() { *alive_ = false; }

void BufferChecker::changed(std::function<QByteArray()> text)
{
    source_ = std::move(text);
    ++generation_; // an older check still running is now stale
    timer_.start();
}

void BufferChecker::checkNow(const QByteArray &text)
{
    timer_.stop();
    ++generation_;
    start(text);
}

void BufferChecker::start(const QByteArray &text)
{
    const quint64 generation = generation_;
    const std::string name = file_name_.toStdString();
    QPointer<BufferChecker> self(this);
    ++running_;
    background::start([self, generation, text, name] {
        QElapsedTimer clock;
        clock.start();
        auto parsed = std::make_shared<inflight::ParseResult>(
            inflight::parse_scene(std::string_view(text.constData(), static_cast<std::size_t>(text.size())), name));
        CheckResult r{generation, text, std::move(parsed), clock.nsecsElapsed() / 1000};
        // Delivered on the GUI thread; dropped when a newer edit came meanwhile.
        QMetaObject::invokeMethod(
            qApp,
            [self, r = std::move(r)] {
                if (!self)
                    return;
                --self->running_;
                if (r.generation == self->generation_)
                    emit self->checked(r);
            },
            Qt::QueuedConnection);
    });
}

} // namespace editor
