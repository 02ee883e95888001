// SPDX-License-Identifier: GPL-3.0-or-later
#include "realkernel/kernel_replay_job.h"

#include "inflight/kernel_replay.hpp"
#include "inflight/model_trace.hpp"
#include "inflight/parser.hpp"
#include "inflight/release_profile.hpp"
#include "inflight/replay_diff.hpp"
#include "inflight/replay_plan.hpp"

#include <unistd.h>

using namespace inflight;

namespace {
QString s(const std::string &text) { return QString::fromStdString(text); }
QString fate(std::optional<bool> alive)
{
    return !alive   ? KernelReplayJob::tr("absent")
           : *alive ? KernelReplayJob::tr("alive")
                    : KernelReplayJob::tr("freed");
}
} // namespace

KernelReplayJob::KernelReplayJob(QObject *parent) : QObject(parent) { }

bool KernelReplayJob::start(const QString &path)
{
    if (jobs_.isRunning())
        return false;
    jobs_.start([path](const JobControl &control) { return replay(path, &control.cancelFlag()); },
                [this](Outcome o) {
                    outcome_ = std::move(o);
                    emit finished();
                });
    return true;
}

KernelReplayJob::Outcome KernelReplayJob::replay(const QString &path, const std::atomic<bool> *cancel)
{
    Outcome o;
    ParseResult parsed = load_scene_file(path.toStdString());
    if (!parsed.ok()) {
        o.banner = tr("The scene has errors: nothing was replayed");
        return o;
    }
    const ReplayPlan plan = plan_replay(parsed.scene, geteuid() == 0);
    if (!plan.ok()) {
        QStringList lines;
        for (const ReplayProblem &p : plan.problems)
            lines << tr("line %1").arg(p.loc.line);
        o.banner = tr("This scene cannot run on a real kernel (%1): nothing was replayed")
                       .arg(lines.join(QStringLiteral(", ")));
        QStringList all;
        for (const std::string &p : format_problems(plan))
            all << s(p);
        o.details = all.join(QLatin1Char('\n'));
        return o;
    }
    const ReleaseProfile profile = profile_for_release(running_kernel_release(), running_kernel_version());
    const ModelTrace model = trace_model(parsed.scene, plan, *profile.kernel);
    KernelReplayOptions options;
    options.expected = expected_fates(model);
    options.cancel = cancel;
    const KernelRun kernel = run_on_kernel(plan, options);
    if (!kernel.ran) {
        o.banner = tr("Could not replay on Linux %1: %2").arg(s(profile.release), s(kernel.failure));
        return o;
    }
    const ReplayReport report = compare_replay(plan, model, kernel, profile);
    o.ran = true;
    o.agrees = report.agrees();
    o.banner = s(agreement_sentence(report));
    if (!report.agrees()) {
        QStringList where;
        for (const ReplayDifference &d : report.differences)
            where << tr("line %1").arg(d.loc.line);
        where.removeDuplicates();
        o.banner += tr("; they differ at %1").arg(where.join(QStringLiteral(", ")));
    }
    o.details = s(replay_report_text(report));
    for (const SocketVerdict &v : report.sockets)
        o.verdict.insert(s(v.label), v.collected_early ? tr("%1, collected early (model: %2, not collected yet)")
                                                             .arg(fate(v.kernel_alive), fate(v.model_alive))
                                                       : tr("%1 (model: %2)%3")
                                                             .arg(fate(v.kernel_alive), fate(v.model_alive),
                                                                  v.agree() ? QString() : tr(" — differs")));
    for (const auto &[alias, label] : kernel.aliases)
        if (o.verdict.contains(s(label)))
            o.verdict.insert(s(alias), o.verdict.value(s(label)));
    return o;
}
