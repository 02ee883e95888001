// SPDX-License-Identifier: GPL-3.0-or-later
#include "lesson/beat_walk.h"

#include "graph/graph_panel.h"
#include "player_controller.h"

#include <QCoreApplication>
#include <QElapsedTimer>

namespace lesson {

bool waitForIndex(PlayerController &controller)
{
    QElapsedTimer clock;
    clock.start();
    while (controller.hasScene() && !controller.indexReady() && clock.elapsed() < kStepTimeoutMs)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    return controller.indexReady();
}

bool walkSteps(PlayerController &controller, GraphPanel &graph, const std::vector<std::uint64_t> &steps,
               const std::function<bool(std::size_t index)> &visit, QString *error)
{
    auto fail = [error](const QString &why) {
        if (error)
            *error = why;
        return false;
    };
    if (!controller.hasScene())
        return fail(QCoreApplication::translate("lesson", "No scene runs"));
    if (!waitForIndex(controller))
        return fail(QCoreApplication::translate("lesson", "The run was not indexed in time"));
    QElapsedTimer clock;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        controller.seek(steps[i]);
        clock.start();
        // There once the seek has landed and the newest layout is on the scene.
        while ((controller.isBusy() || controller.position() != steps[i] || !graph.waitForLayout(50)) &&
               clock.elapsed() < kStepTimeoutMs)
            QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        if (controller.position() != steps[i])
            return fail(QCoreApplication::translate("lesson", "Step %1 was not reached in time").arg(steps[i]));
        if (!visit(i))
            return fail(QCoreApplication::translate("lesson", "Cancelled"));
    }
    return true;
}

} // namespace lesson
