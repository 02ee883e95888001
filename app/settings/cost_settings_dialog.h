// SPDX-License-Identifier: GPL-3.0-or-later
// Model > Costs...: every modelled cost constant with its default, what it means and what it was
// fitted to, editable. The values set here apply over the scene's own `set cost` lines for this
// window's session only (a scene's figures must not change silently the next day); Reset puts
// every constant back to its default.
#pragma once

#include "inflight/cost_model.hpp"

#include <QDialog>

#include <cstdint>
#include <utility>
#include <vector>

class QTableWidget;

class CostSettingsDialog : public QDialog {
    Q_OBJECT
public:
    using Overrides = std::vector<std::pair<inflight::Cost, std::uint64_t>>;

    // `current`: the overrides in force now; `scene_costs`: the scene's own `set cost` values
    // (shown so the user sees what the scene changed).
    CostSettingsDialog(const Overrides &current, const inflight::CostModel &scene_costs, QWidget *parent = nullptr);

    // The table as the user left it: only the constants that differ from the scene's values.
    Overrides overrides() const;

private:
    void resetToDefaults();

    QTableWidget *table_ = nullptr;
    inflight::CostModel scene_costs_;
};
