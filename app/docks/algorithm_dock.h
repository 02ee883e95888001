// SPDX-License-Identifier: GPL-3.0-or-later
// "Algorithm": the active collector's pseudo-code with the line the current micro-step executes
// highlighted (the last collector line stays, dimmed, while the scene does something else), a
// sentence or two narrating the micro-step (inflight::narrate), and the scene's latest note.
#pragma once

#include "inflight/event.hpp"
#include "inflight/gc_era.hpp"
#include "inflight/scene.hpp"

#include <QDockWidget>

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

class QLabel;
class QScrollArea;
class QFrame;
class QSpacerItem;
class QVBoxLayout;
class QMenu;
class QToolButton;
class PlayerController;

namespace docks {

class AlgorithmView;

class AlgorithmDock : public QDockWidget {
    Q_OBJECT
public:
    explicit AlgorithmDock(PlayerController &controller, QWidget *parent = nullptr);

    // For tests: the highlighted listing row (-1: none) and whether it is dimmed; the texts shown.
    int currentListingRow() const;
    bool currentLineDimmed() const;
    QString narrationText() const;
    QString captionText() const; // "Step 103 of 147 · line 35 · …"
    // The findings made at this step (a WARN, a use-after-free, a leak), as the banner shows
    // them; empty when none.
    QString findingText() const;
    QString noteText() const;
    bool noteIsCurrent() const { return note_current_; }
    AlgorithmView *listingView() const { return view_; }
    // The labels as shown, for the lesson check's measure of what fits.
    const QLabel *narrationLabel() const { return narration_; }
    // The tooltip of a narration: the glossary entries of the terms it uses.
    static QString glossaryTip(const QString &story);
    const QLabel *noteLabel() const { return note_; }
    const QLabel *findingLabel() const { return finding_; }
    // Presentation mode: the hitlist as a row of names while it holds any (the lists dock is
    // hidden while presenting).
    const QLabel *hitlistRowLabel() const { return hitlist_row_; }
    QToolButton *notesOutline() const { return outline_; }
    QString listingTitle() const;
    // Presentation mode: the words the class reads and the code around the current line, no
    // more. The note is shown at its own beat only (and the narration then only if it says
    // something else), the caption and the notes' outline are left to the timeline and the
    // desk; the code pane sits at the bottom with at least kPresentationCodeLines lines, its
    // current line at a fixed height on screen whatever the text's length; the text above it
    // gets its type as large as fits (never under kPresentationTextFloorPoints), and the code pane
    // grows up to the text (no empty band between them).
    void setPresentation(bool on);
    bool presenting() const { return presenting_; }
    static constexpr int kPresentationCodeLines = 6;
    // The skbs the hitlist row names; a larger hitlist (a collection of 2,000 rings) is counted
    // after them, so the row stays a line or three and the code keeps its pane.
    static constexpr int kHitlistNamesShown = 8;
    // The least the narration and the note step down to when a long one needs the room: 16 px
    // type at 96 dpi, still read from the last row of a classroom (the desk's list rows).
    static constexpr double kPresentationTextFloorPoints = 12.0;
    static constexpr double kPresentationCodeScale = 0.75; // of the code's size at presentation's scale

protected:
    void resizeEvent(QResizeEvent *e) override;

private:
    static QString autobindTitle(inflight::AutobindMode mode);
    void sceneLoaded();
    void refresh();
    void applyTheme();
    void styleNote();
    void fitNote();
    void setFindingText(double head_points); // the banner's text, its heads at `head_points`
    void fitPresentationText();              // presentation mode: the text's type to the room above the code
    void placeCurrentLine();
    int presentationCodeLeast() const; // the code pane's least height while presenting
    void fillOutline(QMenu *menu);     // the note's box: its text's height, at most a third of the dock
    void indexIfNeeded();
    std::uint16_t lastLineBefore(std::uint64_t step) const;
    std::uint32_t lastNoteLineBefore(std::uint64_t step) const;

    PlayerController &controller_;
    QLabel *title_ = nullptr;
    QFrame *note_box_ = nullptr;
    QLabel *note_title_ = nullptr;
    QLabel *note_ = nullptr;
    QScrollArea *note_scroll_ = nullptr;
    QToolButton *outline_ = nullptr;
    QLabel *caption_ = nullptr;
    QLabel *narration_ = nullptr;
    QLabel *hitlist_row_ = nullptr;
    QLabel *finding_ = nullptr;                         // the findings' banner, above the narration
    std::vector<std::pair<QString, QString>> findings_; // the banner's findings: head, details
    QScrollArea *scroll_ = nullptr;
    AlgorithmView *view_ = nullptr;
    bool note_current_ = false;
    bool note_styled_current_ = false;
    bool scroll_pending_ = false;
    bool presenting_ = false;
    bool fitting_ = false;        // fitPresentationText() is setting fonts (their events wait)
    QSpacerItem *room_ = nullptr; // presentation: the free room between the text and the code
    int note_text_width_ = 1;     // presentation: the width the note's room was measured at
    QVBoxLayout *column_ = nullptr;

    std::map<std::uint32_t, QString> notes_;                          // scene line -> note text
    std::map<std::uint32_t, QString> answers_;                        // scene line of an ask -> its answer
    std::vector<std::pair<std::uint64_t, std::uint32_t>> note_steps_; // steps of note statements
    std::uint64_t indexed_data_ = 0; // the timeline indexed (RecordedEvents::contents_id())
    std::size_t indexed_size_ = 0;
    bool indexed_ = false;
    std::uint64_t complete_to_ = 0; // the index has every step up to here
    // Without the index: followed step by step.
    std::uint64_t followed_pos_ = 0;
    std::uint16_t followed_line_ = 0;
};

} // namespace docks
