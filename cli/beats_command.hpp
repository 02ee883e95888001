// SPDX-License-Identifier: GPL-3.0-or-later
// `inflight-cli beats FILE [--gc ERA] [--variant NAME] [--fast-forward]`: the lesson's beats (inflight/beats.hpp),
// one line each, for scripts and tests that walk a lesson as a presenter's clicker does.
#pragma once

namespace inflight_cli {

// argv[1] is "beats". Exit 0, or 2 for a bad scene or command line.
int beats_main(int argc, char **argv);

} // namespace inflight_cli
