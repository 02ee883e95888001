// SPDX-License-Identifier: GPL-3.0-or-later
// inflight-latency-panel-bench: what one refresh of the latency panel costs while a scene plays
// (not a test). 40,000 calls in four groups spread over a run, the player moved forward in the
// steps a 30-frames-a-second playback takes (~137 newly returned calls a frame), the dock
// refreshed and painted at each: the median cost of a frame beside its goal. Runs offscreen
// unless QT_QPA_PLATFORM says otherwise.
#include "latency/latency_dock.h"
#include "latency/latency_run.h"
#include "player_controller.h"

#include "inflight/latency.hpp"
#include "inflight/process_heap.hpp"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <vector>

namespace {

constexpr double kGoalMsPerFrame = 15.0; // a small part of a 33 ms frame

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

bool openAndIndex(PlayerController &c, const QString &text)
{
    QStringList errors;
    if (!c.openText(text, QStringLiteral("bench"), &errors))
        return false;
    QEventLoop loop;
    QObject::connect(&c, &PlayerController::indexReadyChanged, &loop, [&] {
        if (c.indexReady())
            loop.quit();
    });
    if (!c.indexReady())
        loop.exec();
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    inflight::configure_process_heap(argc, argv);
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    PlayerController c;
    if (!openAndIndex(c, QStringLiteral("repeat 400 as i {\n  socketpair a$i b$i dgram\n  send a$i fds=b$i\n"
                                        "  close a$i b$i\n}\n"))) {
        std::fprintf(stderr, "the scene did not open\n");
        return 1;
    }
    const std::uint64_t total = c.totalSteps();
    latency::LatencyDock dock(c);
    dock.resize(1600, 600);
    dock.show();
    auto run = std::make_shared<latency::LatencyRun>();
    run->tasks = {{"main", 0, 0, false}};
    const std::uint64_t calls = 40'000;
    for (std::uint64_t i = 0; i < calls; ++i) {
        inflight::LatencySample s;
        s.duration_ns = 300 + (i * 7919) % 3'000'000;
        s.first_step = s.last_step = 1 + i * total / calls;
        s.task = 0;
        s.kind = static_cast<inflight::CallKind>(i % 4);
        run->samples.push_back(s);
    }
    dock.setRun(run);
    const std::uint64_t stride = std::max<std::uint64_t>(1, total * 137 / calls);
    std::vector<double> per_frame;
    for (int round = 0; round < 5; ++round) {
        c.seek(0);
        dock.refresh();
        QElapsedTimer clock;
        clock.start();
        int frames = 0;
        for (std::uint64_t step = 0; step < total; step += stride, ++frames) {
            c.seek(step);
            dock.refresh();
            dock.repaint(); // paint too, as the frame would
        }
        per_frame.push_back(static_cast<double>(clock.nsecsElapsed()) / 1e6 / std::max(frames, 1));
    }
    std::printf("latency panel, %llu calls over %llu steps, a frame every %llu steps (median of %zu plays)\n",
                static_cast<unsigned long long>(calls), static_cast<unsigned long long>(total),
                static_cast<unsigned long long>(stride), per_frame.size());
    std::printf("  refresh + paint per frame: %8.2f ms   goal <= %.0f ms   %s\n", median(per_frame), kGoalMsPerFrame,
                median(per_frame) <= kGoalMsPerFrame ? "met" : "MISSED");
    return 0;
}
