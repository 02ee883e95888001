// SPDX-License-Identifier: GPL-3.0-or-later
// inflight-replay-agent SCENE: the replayer alone, linked statically, for the initramfs of
// `inflight-cli replay --vm`. It runs the same plan and kernel replay as the in-process one
// (realkernel/), waiting for the fates the model predicts for the kernel it runs on, and
// prints the kernel's report as one line of JSON between two markers on the console.
#include "inflight/kernel_replay.hpp"
#include "inflight/model_trace.hpp"
#include "inflight/parser.hpp"
#include "inflight/release_profile.hpp"
#include "inflight/replay_plan.hpp"

#include <unistd.h>

#include <cstdio>

using namespace inflight;

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: inflight-replay-agent SCENE\n");
        return 2;
    }
    KernelRun run;
    run.release = running_kernel_release();
    run.version = running_kernel_version();
    ParseResult parsed = load_scene_file(argv[1]);
    if (!parsed.ok()) {
        run.failure = "the scene has errors";
    } else {
        const ReplayPlan plan = plan_replay(parsed.scene, geteuid() == 0);
        if (!plan.ok()) {
            run.failure = "the scene cannot be replayed";
        } else {
            const ReleaseProfile profile = profile_for_release(run.release, run.version);
            KernelReplayOptions options;
            options.expected = expected_fates(trace_model(parsed.scene, plan, *profile.kernel));
            run = run_on_kernel(plan, options);
        }
    }
    std::printf("\nINFLIGHT-REPLAY-BEGIN\n%s\nINFLIGHT-REPLAY-END\n", kernel_run_json(run).c_str());
    std::fflush(stdout);
    return run.ran ? 0 : 1;
}
