// SPDX-License-Identifier: GPL-3.0-or-later
#include "side_by_side.h"

#include "player_controller.h"

#include "inflight/kernel_profile.hpp"

SideBySide::SideBySide(PlayerController &primary, QObject *parent) : QObject(parent), primary_(primary) { }

SideBySide::~SideBySide() = default;

QString SideBySide::defaultPair() const
{
    if (!primary_.hasScene())
        return {};
    const auto &variants = primary_.baseScene().variants;
    if (variants.size() >= 2)
        return QString::fromStdString(variants[0].name) + QLatin1Char(',') + QString::fromStdString(variants[1].name);
    const auto profiles = inflight::kernel_profiles();
    const std::string_view own = primary_.kernelProfile().name;
    for (auto it = profiles.rbegin(); it != profiles.rend(); ++it)
        if (it->name != own)
            return QString::fromUtf8(own.data(), qsizetype(own.size())) + QLatin1Char(',') +
                   QString::fromUtf8(it->name.data(), qsizetype(it->name.size()));
    return {};
}

std::optional<SideBySide::Choice> SideBySide::resolve(const QString &name) const
{
    const auto &variants = primary_.baseScene().variants;
    for (std::size_t i = 0; i < variants.size(); ++i)
        if (QString::fromStdString(variants[i].name) == name)
            return Choice{static_cast<int>(i), nullptr};
    if (const inflight::KernelProfile *k = inflight::kernel_profile_by_name(name.toStdString()))
        return Choice{-1, k};
    return std::nullopt;
}

void SideBySide::apply(PlayerController &controller, const Choice &choice)
{
    if (choice.kernel) {
        controller.setVariant(-1);
        controller.setKernel(choice.kernel);
    } else {
        controller.setVariant(choice.variant);
    }
}

QString SideBySide::nameOf(const PlayerController &controller)
{
    const auto &variants = controller.baseScene().variants;
    const int v = controller.variant();
    if (v >= 0 && static_cast<std::size_t>(v) < variants.size())
        return QString::fromStdString(variants[static_cast<std::size_t>(v)].name);
    const inflight::KernelProfile &k = controller.kernelProfile();
    return QString::fromUtf8(k.name.data(), qsizetype(k.name.size()));
}

bool SideBySide::start(const QString &pair, QString *error)
{
    const QStringList names = pair.split(QLatin1Char(','));
    const auto fail = [&](const QString &why) {
        if (error) {
            QStringList offered;
            if (primary_.hasScene())
                for (const auto &v : primary_.baseScene().variants)
                    offered << QString::fromStdString(v.name);
            *error =
                why + (offered.isEmpty() ? tr(" (the scene has no variants; name two kernel profiles, e.g. 6.1,6.8)")
                                         : tr(" (the scene's variants: %1; or two kernel profiles)")
                                               .arg(offered.join(QStringLiteral(", "))));
        }
        return false;
    };
    if (!primary_.hasScene())
        return fail(tr("side by side needs a scene that runs"));
    if (names.size() != 2 || names[0].trimmed().isEmpty() || names[1].trimmed().isEmpty())
        return fail(tr("side by side takes two names, A,B, not '%1'").arg(pair));
    const auto a = resolve(names[0].trimmed());
    const auto b = resolve(names[1].trimmed());
    if (!a || !b)
        return fail(tr("the scene has no variant or kernel profile '%1'").arg(!a ? names[0] : names[1]));
    stop();
    name_a_ = names[0].trimmed();
    name_b_ = names[1].trimmed();
    choice_b_ = *b;
    apply(primary_, *a);
    secondary_ = std::make_unique<PlayerController>();
    openSecondary();
    connections_ << connect(&primary_, &PlayerController::positionChanged, this, &SideBySide::follow)
                 << connect(&primary_, &PlayerController::indexReadyChanged, this,
                            [this] {
                                findDivergence();
                                follow();
                            })
                 << connect(&primary_, &PlayerController::sceneLoaded, this, [this] {
                        // Another scene, or the same one edited: the second run is of it too.
                        if (primary_.baseScenePointer() != secondary_->baseScenePointer())
                            openSecondary();
                        // The window's run may now be another variant or kernel (its boxes):
                        // the left pane is named after what it runs.
                        name_a_ = nameOf(primary_);
                        divergence_.reset();
                        emit changed();
                    });
    connect(secondary_.get(), &PlayerController::indexReadyChanged, this, [this] {
        findDivergence();
        follow();
    });
    connect(secondary_.get(), &PlayerController::positionChanged, this, &SideBySide::changed);
    findDivergence();
    follow();
    emit changed();
    return true;
}

void SideBySide::stop()
{
    for (const auto &c : std::as_const(connections_))
        disconnect(c);
    connections_.clear();
    secondary_.reset();
    divergence_.reset();
    emit changed();
}

void SideBySide::openSecondary()
{
    secondary_->setStepsIntoCollections(primary_.stepsIntoCollections());
    secondary_->openParsed(primary_.baseScenePointer(), primary_.filePath());
    apply(*secondary_, choice_b_);
}

void SideBySide::follow()
{
    if (!secondary_ || !primary_.indexReady() || !secondary_->indexReady())
        return;
    const std::uint64_t target = side_by_side::follow(primary_.runIndex(), primary_.position(), secondary_->runIndex(),
                                                      secondary_->totalSteps());
    if (target != secondary_->position())
        secondary_->seek(target);
}

bool SideBySide::inStep() const
{
    if (!secondary_ || !primary_.indexReady() || !secondary_->indexReady() || secondary_->isBusy())
        return false;
    return side_by_side::follow(primary_.runIndex(), primary_.position(), secondary_->runIndex(),
                                secondary_->totalSteps()) == secondary_->position();
}

void SideBySide::findDivergence()
{
    divergence_.reset();
    if (secondary_ && primary_.indexReady() && secondary_->indexReady() && primary_.endOfRun() &&
        secondary_->endOfRun())
        divergence_ = side_by_side::firstDivergence(
            side_by_side::outcomes(primary_.timeline(), primary_.endOfRun()->names),
            side_by_side::outcomes(secondary_->timeline(), secondary_->endOfRun()->names));
    emit changed();
}

QString SideBySide::announcement() const
{
    if (!divergence_ || !primary_.indexReady())
        return {};
    const side_by_side::Place here = side_by_side::placeAt(primary_.runIndex(), primary_.position());
    if (here.line != divergence_->line || here.iteration != divergence_->iteration)
        return {};
    return QString::fromStdString(divergence_->announcement(name_a_.toStdString(), name_b_.toStdString()));
}
