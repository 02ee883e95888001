// SPDX-License-Identifier: GPL-3.0-or-later
// Shared by the test suites: parse scene text and run it, failing the test on a bad scene.
#pragma once

#include "inflight/kernel.hpp"
#include "inflight/parser.hpp"
#include "inflight/simulation.hpp"

#include <QTest>

#include <memory>
#include <string>

namespace inflight::test {

inline std::shared_ptr<const Scene> scene_of(const std::string &text)
{
    ParseResult r = parse_scene(text, "test.scn");
    std::string all;
    for (const auto &d : r.diagnostics)
        all += d.format() + "\n";
    if (!r.ok())
        qWarning("%s", all.c_str());
    return r.ok() ? std::make_shared<const Scene>(std::move(r.scene)) : nullptr;
}

// `rings` closed rings of eight datagram socket pairs (u(r,j)'s file in u(r,j+1)'s queue, the
// last back to the first), every u closed, then `tail`: a graph of in-flight cycles only a
// collection frees.
inline std::shared_ptr<const Scene> closed_rings(int rings, const std::string &tail)
{
    const std::string n = std::to_string(rings);
    const std::string text = "scene \"rings\"\nset gc graph\nset nofile 10000\n"
                             "repeat " +
                             n +
                             " as r {\n  repeat 8 as j {\n    socketpair u${r}_$j p${r}_$j dgram\n  }\n}\n"
                             "repeat " +
                             n +
                             " as r {\n  repeat 7 as j {\n    send p${r}_${j+1} fds=u${r}_$j\n  }\n"
                             "  send p${r}_0 fds=u${r}_7\n}\n"
                             "repeat " +
                             n + " as r {\n  repeat 8 as j {\n    close u${r}_$j\n  }\n}\n" + tail;
    ParseResult parsed = parse_scene(text, "rings.scn");
    if (!parsed.ok())
        return nullptr;
    return std::make_shared<const Scene>(std::move(parsed.scene));
}

// Runs the scene to the end, by default with invariants checked after every micro-step.
inline std::unique_ptr<Simulation> run_scene(const std::string &text, std::optional<GcEra> era = std::nullopt,
                                             bool record = false, bool checked = true)
{
    auto scene = scene_of(text);
    if (!scene)
        return nullptr;
    SimulationOptions o;
    o.era = era;
    o.checked = checked;
    o.record = record;
    auto sim = std::make_unique<Simulation>(scene, o);
    sim->run();
    return sim;
}

inline const UnixSock &sock(const Simulation &sim, const std::string &label)
{
    auto *u = const_cast<Kernel &>(sim.kernel()).find_label(label);
    if (!u)
        qFatal("no socket labelled %s", label.c_str());
    return *u;
}

inline std::string findings_of(const Simulation &sim)
{
    std::string s;
    for (const auto &f : sim.kernel().findings)
        s += f.invariant + ": " + f.message + "\n";
    return s;
}

} // namespace inflight::test
