// SPDX-License-Identifier: GPL-3.0-or-later
// `inflight-cli kernels [--json]`: the kernel profiles and the named changes each has.
#pragma once

namespace inflight_cli {

// argv[1] is "kernels". Exit 0, or 2 for a bad option.
int kernels_main(int argc, char **argv);

} // namespace inflight_cli
