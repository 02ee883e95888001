// SPDX-License-Identifier: GPL-3.0-or-later
// Side by side: a second run of the scene the window shows, under another variant (or kernel
// profile), slaved to the window's controller. The window's run drives; the second one follows
// it to the same statement and beat (side_by_side_sync.h), and the first statement where their
// outcomes differ is found once both runs are indexed.
#pragma once

#include "side_by_side_sync.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

class PlayerController;
namespace inflight {
struct KernelProfile;
struct Scene;
} // namespace inflight

class SideBySide : public QObject {
    Q_OBJECT
public:
    explicit SideBySide(PlayerController &primary, QObject *parent = nullptr);
    ~SideBySide() override;

    // The pair the menu offers first: the scene's first two variants, else the run's kernel
    // profile and the newest one that differs from it ("" without a scene).
    QString defaultPair() const;
    // "buggy,fixed" (variants of the scene) or "6.1,6.8" (kernel profiles): the window's run
    // becomes the first, a second run the second. False with a message naming what the scene
    // offers, and nothing changed, when the pair is not two known names.
    bool start(const QString &pair, QString *error = nullptr);
    void stop();
    bool active() const { return static_cast<bool>(secondary_); }
    PlayerController &primary() const { return primary_; }
    PlayerController *secondary() const { return secondary_.get(); }
    QString nameA() const { return name_a_; }
    QString nameB() const { return name_b_; }
    // Found once both runs are indexed (none: they do the same things).
    const std::optional<side_by_side::Divergence> &divergence() const { return divergence_; }
    // The divergence in words while the window's run is at its statement, else "".
    QString announcement() const;
    // Both runs are indexed and the second shows the place the first does.
    bool inStep() const;

signals:
    // The second run moved, was (re)loaded, or the divergence was found.
    void changed();

private:
    struct Choice {
        int variant = -1;                                // a variant of the scene, or
        const inflight::KernelProfile *kernel = nullptr; // a kernel profile
    };
    std::optional<Choice> resolve(const QString &name) const;
    static void apply(PlayerController &controller, const Choice &choice);
    // What a run is called in its pane: its variant's name, or else its kernel profile's.
    static QString nameOf(const PlayerController &controller);
    void openSecondary();
    void follow();
    void findDivergence();

    PlayerController &primary_;
    std::unique_ptr<PlayerController> secondary_;
    QString name_a_, name_b_;
    Choice choice_b_;
    std::optional<side_by_side::Divergence> divergence_;
    QList<QMetaObject::Connection> connections_;
};
