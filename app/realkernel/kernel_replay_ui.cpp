// SPDX-License-Identifier: GPL-3.0-or-later
#include "realkernel/kernel_replay_ui.h"

#include "docks/inspector_dock.h"
#include "player_controller.h"
#include "realkernel/kernel_replay_job.h"

#include "inflight/kernel_replay.hpp"

#include <QAction>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QPointer>
#include <QStatusBar>

void install_kernel_replay(QMainWindow &window, PlayerController &controller, QMenu &run,
                           docks::InspectorDock *inspector)
{
    auto *job = new KernelReplayJob(&window);
    job->setObjectName(QStringLiteral("kernelReplayJob"));
    auto *banner = new QLabel(&window);
    banner->setObjectName(QStringLiteral("kernelReplayBanner"));
    banner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    banner->hide();
    window.statusBar()->addPermanentWidget(banner);
    const QString kernel = QStringLiteral("Linux ") + QString::fromStdString(inflight::running_kernel_release());

    auto *action = run.addAction(KernelReplayJob::tr("On this &kernel"));
    action->setObjectName(QStringLiteral("replayOnKernel"));
    action->setToolTip(KernelReplayJob::tr("Replay the scene with real syscalls on %1, in a fresh network "
                                           "namespace, and show the kernel's verdict beside the model's")
                           .arg(kernel));
    QObject::connect(action, &QAction::triggered, &window, [&controller, job, banner, action, kernel] {
        if (!controller.hasScene() || controller.filePath().isEmpty()) {
            banner->setText(KernelReplayJob::tr("Open a scene file to replay it on %1").arg(kernel));
            banner->show();
            return;
        }
        if (!job->start(controller.filePath()))
            return;
        action->setEnabled(false);
        banner->setText(KernelReplayJob::tr("Replaying on %1…").arg(kernel));
        banner->setToolTip(QString());
        banner->show();
    });
    QPointer<docks::InspectorDock> dock = inspector;
    QObject::connect(job, &KernelReplayJob::finished, &window, [job, banner, action, dock, kernel] {
        const KernelReplayJob::Outcome &o = job->outcome();
        action->setEnabled(true);
        banner->setText(o.banner);
        banner->setToolTip(o.details);
        banner->setStyleSheet(o.ran ? (o.agrees ? QStringLiteral("color: palette(text);")
                                                : QStringLiteral("color: #b00020; font-weight: bold;"))
                                    : QString());
        banner->show();
        if (dock)
            dock->setKernelVerdicts(o.verdict, kernel);
    });
    // A verdict is about the scene it was replayed from: another scene (or a reload) clears it.
    QObject::connect(&controller, &PlayerController::sceneLoaded, &window, [job, banner, dock, kernel] {
        if (job->running())
            return;
        banner->hide();
        banner->clear();
        if (dock)
            dock->setKernelVerdicts({}, kernel);
    });
}
