// SPDX-License-Identifier: GPL-3.0-or-later
#include "rerun_progress.h"

#include "../player_controller.h"

namespace editor {

RerunProgress::RerunProgress(PlayerController &controller, QWidget *parent) : QProgressBar(parent)
{
    setTextVisible(true);
    setMaximumWidth(320);
    setFormat(tr("Re-running the edit: statement %v of %m"));
    hide();
    connect(&controller, &PlayerController::rerunPendingChanged, this, [this](bool pending) {
        setVisible(pending);
        if (pending)
            setValue(0);
    });
    connect(&controller, &PlayerController::rerunProgress, this, [this](quint64 done, quint64 of) {
        // QProgressBar counts in int: a run of billions of statements is shown in proportion.
        const double scale = of > 1'000'000'000ull ? 1'000'000'000.0 / static_cast<double>(of) : 1.0;
        setMaximum(static_cast<int>(static_cast<double>(of) * scale));
        setValue(static_cast<int>(static_cast<double>(done) * scale));
    });
}

} // namespace editor
