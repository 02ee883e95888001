// SPDX-License-Identifier: GPL-3.0-or-later
// The centre of the window side by side: the window's graph with its run's narration on the
// left, the second run's graph (a GraphPanel of its own controller) and narration on the right,
// each under the name of its variant, and across both the announcement of where the runs differ.
#pragma once

#include <QWidget>

class GraphPanel;
class QLabel;
class QVBoxLayout;
class SideBySide;

class SideBySideView : public QWidget {
    Q_OBJECT
public:
    // `primary_graph`: the window's own graph, taken into the left pane until release().
    SideBySideView(SideBySide &pair, GraphPanel *primary_graph, QWidget *parent = nullptr);
    ~SideBySideView() override;
    // Gives the window's graph back (reparented to `to`) before this view goes.
    void release(QWidget *to);
    GraphPanel *secondaryGraph() const { return secondary_graph_; }
    const QLabel *narration(int pane) const { return pane == 0 ? narration_a_ : narration_b_; }
    const QLabel *note(int pane) const { return pane == 0 ? note_a_ : note_b_; }
    const QLabel *title(int pane) const { return pane == 0 ? title_a_ : title_b_; }
    const QLabel *sharedNote() const { return shared_note_; }
    const QLabel *sharedNarration() const { return shared_narration_; }
    const QLabel *announcementLabel() const { return announcement_; }
    void setPresentation(bool on, double min_label_pixels);

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    static constexpr double kNarrationPoints = 10;
    void refresh();
    void restyle();
    void fitTexts();

    SideBySide &pair_;
    GraphPanel *primary_graph_;
    GraphPanel *secondary_graph_ = nullptr;
    QVBoxLayout *left_ = nullptr;
    QLabel *title_a_ = nullptr, *title_b_ = nullptr;
    QLabel *note_a_ = nullptr, *note_b_ = nullptr; // each run's last note (a variant's own)
    QLabel *narration_a_ = nullptr, *narration_b_ = nullptr;
    QLabel *announcement_ = nullptr;
    QLabel *shared_note_ = nullptr;      // a note both runs show, once across both panes
    QLabel *shared_narration_ = nullptr; // what both runs say at this beat, once across both
};
