// SPDX-License-Identifier: GPL-3.0-or-later
// The collector's pseudo-code, one listing line a row, indented by its `indent`, wrapped to
// the width, with the current line highlighted (or dimmed: the last line the collector ran
// while the scene does something else). Comments after "#" are drawn muted.
#pragma once

#include "inflight/algorithm_listing.hpp"

#include <QTextLayout>
#include <QWidget>

#include <memory>
#include <string_view>
#include <utility>
#include <vector>

namespace docks {

// A listing line as drawn: its text, with a break opportunity (U+200B) after each underscore
// inside an identifier, and where its comment starts (-1: none). A narrow pane (the
// presentation view's large font) then wraps `unix_graph_maybe_cyclic` after `maybe_`, not
// as `unix_graph_maybe_cyc` / `lic`.
std::pair<QString, int> listingText(std::string_view line);
// `raw` with the same break opportunities after each underscore inside a name (the narration's
// large type in a narrow column: unix_graph_maybe_cyclic wraps instead of sticking out).
QString withNameBreaks(const QString &raw);

class AlgorithmView : public QWidget {
    Q_OBJECT
public:
    explicit AlgorithmView(QWidget *parent = nullptr);

    void setListing(const std::vector<inflight::ListingLine> *listing);
    const std::vector<inflight::ListingLine> *listing() const { return listing_; }
    // row: index into the listing (-1: none).
    void setCurrent(int row, bool dimmed);
    int currentRow() const { return current_; }
    bool dimmed() const { return dimmed_; }
    // Theme colours changed: lay out again.
    void restyle();
    QRect rowRect(int row) const;

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int w) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void currentRectChanged(QRect rect);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *e) override;

private:
    struct Laid {
        int top, height, x;
        std::shared_ptr<QTextLayout> regular, bold; // laid out for the width they were made for
    };
    // Rows laid out for `width`; the result for the widget's own width is kept for painting.
    const std::vector<Laid> &layoutRows(int width) const;
    QColor mutedColor() const;
    int gutter() const;
    int indentStep() const;

    const std::vector<inflight::ListingLine> *listing_ = nullptr;
    int current_ = -1;
    bool dimmed_ = false;
    mutable std::vector<Laid> laid_;
    mutable int laid_width_ = -1;
    mutable std::vector<Laid> measured_; // for heightForWidth() at another width
    mutable int measured_width_ = -1;
};

} // namespace docks
