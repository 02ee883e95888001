// SPDX-License-Identifier: GPL-3.0-or-later
// `inflight-cli replay` and `inflight-cli export-c`: the scene on the running kernel.
#pragma once

namespace inflight_cli {

// argv[1] is "replay": exit 0 when the kernel agrees with the model, 1 when they differ, 2 when
// the scene cannot be replayed (or the namespace cannot be made).
int replay_main(int argc, char **argv);
// argv[1] is "export-c": writes the scene as a standalone C test.
int export_c_main(int argc, char **argv);

} // namespace inflight_cli
