// SPDX-License-Identifier: GPL-3.0-or-later
// The one object every view talks to: it owns the scene and the engine's Player, knows the
// whole run (an index of every event, computed once off the GUI thread), the selection shared by
// all views, breakpoints, and play/pause. Views read the state at the current position as values
// (snapshot(), graphSnapshot(), selectedDetail()), taken once per position change before any view
// hears of it; they never walk the live model, which moves on (or is replaced by a checkpoint
// restore, or taken by a background seek that restores into its memory) while they paint, and
// they never step the engine themselves. Background work (the index, long seeks, re-runs) runs
// through one JobTracker per lane; a run's scene, options, checkpoints and index are its
// RunSession.
#pragma once

#include "heap_trim.h"
#include "inflight/checkpoint_store.hpp"
#include "inflight/event.hpp"
#include "inflight/event_breakpoints.hpp"
#include "inflight/finished_run.hpp"
#include "inflight/gc_era.hpp"
#include "inflight/latency.hpp"
#include "inflight/player.hpp"
#include "inflight/recorded_events.hpp"
#include "inflight/run_index.hpp"
#include "inflight/run_landmarks.hpp"
#include "inflight/scene.hpp"
#include "inflight/scene_cursor.hpp"
#include "inflight/socket_detail.hpp"
#include "inflight/step_snapshot.hpp"
#include "inflight/stop_conditions.hpp"
#include "inflight/watch.hpp"
#include "jobs/job_tracker.h"
#include "latency/latency_run.h"
#include "position_values.h"
#include "run_indexer.h"
#include "run_session.h"

#include <QObject>
#include <QSet>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace inflight {
class AbstractNamespace;
class Kernel;
class Simulation;
struct GraphSnapshot;
} // namespace inflight

class PlayerController : public QObject {
    Q_OBJECT
public:
    explicit PlayerController(QObject *parent = nullptr);
    ~PlayerController() override;

    // ---- loading ----------------------------------------------------------------------------
    // Parses and loads; on failure keeps the current scene and returns the located messages.
    bool openFile(const QString &path, QStringList *errors = nullptr);
    bool openText(const QString &text, const QString &name, QStringList *errors = nullptr);
    // A scene the editor parsed (without errors), opened as if from `path` (may be empty).
    void openParsed(std::shared_ptr<const inflight::Scene> scene, const QString &path);
    // The edited scene re-run where the view was: the same statement (by its ordinal in the
    // run) and micro-step offset within it. The collector stays unless the edit changed `set gc`.
    // Emits sceneLoaded() with isRerun() true, so views keep what the user chose. A place
    // the checkpoint store estimates to replay within kInlineSeekCost (at the old run's measured
    // rate: an edit changes little of it) is replayed at once; a later one on a pool thread, with
    // rerunProgress() meanwhile and the old run on screen and usable until the new one is
    // there (aboutToRerun() just before it replaces it). A newer call supersedes a pending one.
    void rerunKeepingPlace(std::shared_ptr<const inflight::Scene> scene);
    bool isRerun() const { return session_ && session_->keeps_place; }
    bool isRerunPending() const { return rerun_jobs_.isRunning(); }
    // To the next start of the statement on `line` after the current position (from the start
    // when there is none after it): run to cursor. False when the line never runs.
    bool runToLine(int line);
    // The line of the statement that starts next after the current position (0: none).
    int nextStatementLine() const;
    // Re-runs the scene under another collector, at the same statement as far as possible.
    void setEra(inflight::GcEra era); // that era's profile (the scene's own when of that era)
    // Re-runs the scene on a kernel profile, at the same statement; null: the scene's own.
    void setKernel(const inflight::KernelProfile *profile);
    // The profile the run uses (the Collector box, the algorithm's title).
    const inflight::KernelProfile &kernelProfile() const;
    // Run one of the scene's `variant` blocks (-1: the scene as written): the same statements
    // under its settings. The scene opened stays the base.
    void setVariant(int index);
    int variant() const { return variant_; }
    const inflight::Scene &baseScene() const { return *base_scene_; }
    // The same, shared: a second run of the scene (side by side) is opened from it.
    std::shared_ptr<const inflight::Scene> baseScenePointer() const { return base_scene_; }
    inflight::GcEra era() const { return era_; }
    // Step into every micro-step of collections and autobind probes (the default for scenes
    // of up to kStepIntoLimit statements), or fast-forward them: their cost is still counted
    // and gc_begin/gc_end still shown, but a 32,000-socket collection is one step, not 32,000.
    // Changing it re-runs the scene (step numbers differ between the two).
    static constexpr std::uint64_t kStepIntoLimit = 50'000;
    // A seek or re-run the checkpoint store estimates to cost up to this runs on the GUI
    // thread; a longer one on a pool thread, so the window keeps its frames.
    static constexpr std::chrono::milliseconds kInlineSeekCost{30};
    // Whether replaying `steps` from a run's start, at the rate this run's store measured,
    // costs up to kInlineSeekCost (false without a run).
    bool replaysInline(std::uint64_t steps) const;
    // True for the scenes that start fast-forwarded: more than kStepIntoLimit statements, or a
    // time-model scene (several CPUs) of more than 10,000 (32,000 sockets in flight make every
    // collection tens of thousands of steps).
    static bool fastForwardsByDefault(const inflight::Scene &scene);
    bool stepsIntoCollections() const { return !fast_forward_; }
    void setStepsIntoCollections(bool on);
    // Cost constants set in the Model > Costs dialog, over the scene's `set cost` lines.
    void setCostOverrides(std::vector<std::pair<inflight::Cost, std::uint64_t>> overrides);
    const std::vector<std::pair<inflight::Cost, std::uint64_t>> &costOverrides() const { return cost_overrides_; }
    // Every Simulation of this window's run is made with these (player, index, views), so that
    // their step numbers agree.
    inflight::SimulationOptions simulationOptions() const;
    bool hasScene() const { return static_cast<bool>(session_); }
    const inflight::Scene &scene() const { return *session_->scene; }
    QString filePath() const { return path_; }

    // ---- the state at the current position, as values -------------------------------------------
    // What the docks show (lists, stacks, globals, labels), taken when the position changed
    // (or a scene was loaded), before any view was told. Empty without a scene.
    const inflight::StepSnapshot &snapshot() const { return *snapshot_; }
    // The graph panel's picture of every socket: O(sockets), so taken when first asked for
    // at a position, not at every step a view skips while playing.
    std::shared_ptr<const inflight::GraphSnapshot> graphSnapshot() const;
    // The inspector's detail of the selected socket at this position (null: none selected, or
    // the run has not made it yet).
    const inflight::SocketDetail *selectedDetail() const;
    // A socket by any of its labels at this position ("a", "s2", an accepted fd's name).
    std::optional<std::uint32_t> findSocket(const QString &label) const;
    // The current step told in plain words (narrate()), "" at step 0.
    QString narration() const;
    // The live abstract namespace, for the autobind map only: it reads the 2^20-name table
    // incrementally (AbstractNamespace::read_dirty), which a copy per step would defeat. Re-read
    // it at every positionChanged(): a backward step replaces the kernel; and let go of it at
    // seekStarted(). Null without a scene and while a seek is under way.
    const inflight::AbstractNamespace *abstractNamespace() const;
    // The live run, for tests that check the views against the model (never while
    // isSeeking()). Views read the values above instead.
    const inflight::Simulation &sim() const { return player_->sim(); }
    const inflight::Event *currentEvent() const; // the step just taken (nullptr at step 0)
    std::uint64_t position() const { return player_ ? player_->position() : shown_.position; }
    std::uint64_t totalSteps() const { return index().ready ? index().total_steps : 0; }
    bool atEnd() const;
    // The number of the lesson's beat on screen: how many beats are at or before here (0:
    // before the first), and how many the run has (0 until indexReady()).
    int beatNumber() const { return static_cast<int>(runIndex().beats_up_to(position())); }
    int beatCount() const { return static_cast<int>(runIndex().beats().size()); }

    // ---- the whole run (ready once indexReady() is true) ------------------------------------------
    bool indexReady() const { return index().ready; }
    // The run's events in order. Up to kIndexCap events every micro-step is there
    // (timeline()[i].step == i + 1, indexComplete()); a longer run keeps only its landmarks
    // (statements, collections, findings) past the cap, so use each Event::step, not the row.
    // Packed (RecordedEvents): rows are decoded when read, by value.
    const inflight::RecordedEvents &timeline() const { return index().events; }
    bool indexComplete() const { return index().complete; }
    static constexpr std::size_t kIndexCap = 2'000'000;
    // Why the index ended before the run did: the budget reached, located ("" when it saw the
    // end). The run up to there is shown and navigable; totalSteps() is where it stopped.
    QString indexStoppedBy() const { return index().stopped_by; }
    // The indexer's budgets (run_indexer.h).
    using IndexLimits = ::IndexLimits;
    // For the scenes opened from now on.
    void setIndexLimits(IndexLimits limits) { index_limits_ = limits; }
    // What the views mark on the run, found off the GUI thread as it was indexed (empty until
    // indexReady()): the timeline's ticks and bands, the listing line at any step, where each
    // collection's events start.
    const inflight::RunLandmarks &landmarks() const { return *index().landmarks; }
    // Where the run can be navigated to, as binary searches (empty until indexReady()): the
    // statements, notes, collections and the lesson's beats.
    const inflight::RunIndex &runIndex() const { return *index().navigation; }
    // Steps where a collection starts, a statement fails, a finding was made (for timeline ticks).
    const std::vector<std::uint64_t> &collectionSteps() const { return landmarks().gc_steps; }
    const std::vector<std::uint64_t> &warningSteps() const { return landmarks().warning_steps; }
    // The step of each expect statement's check (expect_result), in order.
    const std::vector<std::uint64_t> &expectationSteps() const { return landmarks().expectation_steps; }
    // The first step of the statement on `line` (0 if it never runs).
    std::uint64_t firstStepOfLine(int line) const;
    // Every timed call of the whole run (sendmsg, autobind), the tasks that made them and the
    // users' names by Kernel::users index: the latency panel reads them (with the index).
    const inflight::LatencyLog &latencySamples() const { return index().latency->samples; }
    const std::vector<inflight::TaskInfo> &tasks() const { return index().latency->tasks; }
    const std::vector<std::string> &userNames() const { return index().latency->user_names; }
    // The three above as one shared value, which the latency panel keeps (never a copy).
    std::shared_ptr<const latency::LatencyRun> latencyRun() const { return index().latency; }
    // What is kept of the index's own run once finished (null until indexReady()): the names
    // of every socket the run ever made, for views that name sockets by label, its
    // expectations, tasks and ending. Its latency samples were handed to latencySamples().
    std::shared_ptr<const inflight::FinishedRun> endOfRun() const { return index().finished; }
    // The whole run's trace as JSON ("Export trace as JSON"), with every socket named from the
    // finished run's kernel, whatever the current position (empty until indexReady()).
    std::string traceJson() const;

    // ---- selection shared by every view ----------------------------------------------------------
    std::optional<std::uint32_t> selectedSocket() const { return selected_; }
    void selectSocket(std::optional<std::uint32_t> sock);

    // ---- breakpoints ---------------------------------------------------------------------------
    // Everything that stops a run (line breakpoints, conditional or not, event breakpoints and
    // watches) is one engine value, inflight::StopConditions: continue and play check it at
    // every step, a reverse continue searches the run's checkpoints for it.
    // The lines with a breakpoint, conditional or not.
    QSet<int> lineBreakpoints() const;
    // Those whose breakpoint has a condition.
    QSet<int> conditionalLineBreakpoints() const;
    void toggleLineBreakpoint(int line);
    // The condition of the breakpoint on `line` ("" when it has none or there is none), a
    // watch expression (inflight/watch.hpp): it stops there only when the condition holds.
    QString lineBreakpointCondition(int line) const;
    // Sets it, adding the breakpoint if there was none; "" makes it unconditional. On a bad
    // condition returns false and a message with its column, and changes nothing.
    bool setLineBreakpointCondition(int line, const QString &condition, QString *error = nullptr);
    // Every line breakpoint as written ("14", "14 if inflight a >= 2"), by line: what MainWindow
    // keeps per file. Setting them skips texts that do not parse.
    QStringList lineBreakpointTexts() const;
    void setLineBreakpointTexts(const QStringList &texts);
    inflight::EventBreakpointSet &eventBreakpoints() { return stops_.events; }

    // ---- watches (the Watches dock) -------------------------------------------------------
    // Adds a watch expression (inflight/watch.hpp); on a bad one returns false and a message
    // with its column.
    bool addWatch(const QString &expr, QString *error = nullptr);
    void removeWatch(int index);
    int watchCount() const { return static_cast<int>(stops_.watches.size()); }
    QString watchText(int index) const;
    // The watch's value at the current position ("" without a scene).
    QString watchValue(int index) const;

    // ---- playback ------------------------------------------------------------------------------
    bool isPlaying() const { return timer_.isActive(); }
    // A background job moves the view (a long seek, a reverse search, a collector switch's replay).
    bool isBusy() const { return navigation_jobs_.isRunning() || seek_target_.has_value(); }
    // A background seek has the player (it restores into the memory of the state it frees): the
    // live state is not here, and what views read is the state on screen before it.
    bool isSeeking() const { return !player_ && seek_target_.has_value(); }
    double speed() const { return speed_; } // micro-steps per second

public slots:
    void first();
    void back();
    void backStatement();
    void stepInto();
    void stepOver();
    void stepOut();
    // Finish the kernel function that made the current step (one scan_children(), one DFS).
    void stepOutFunction();
    // Reverse-continue (Shift+F5): back to the previous breakpoint or watchpoint hit.
    void reverseContinue();
    // Back to just before the collection in progress began (gdb's reverse-finish).
    void reverseStepOut();
    void last();
    // To the next (previous) `note` statement: the lesson's outline. Needs the index.
    void nextNote();
    void previousNote();
    // A lesson's beats (inflight/beats.hpp): to the next one, the one before, the n-th (1-based;
    // 0: the start). Before the index is ready, a statement is the nearest thing to a beat.
    void nextBeat();
    void previousBeat();
    void goToBeat(int n);
    void seek(std::uint64_t step);
    // Runs forward until a breakpoint or the end (bounded work per call: stays responsive).
    void continueToBreakpoint();
    void play();
    void pause();
    void setSpeed(double steps_per_second);

signals:
    void sceneLoaded();
    void positionChanged();
    void selectionChanged();
    void indexReadyChanged();
    // While the run is being indexed off the GUI thread (large scenes take seconds).
    void indexProgress(quint64 steps, quint64 statements);
    // A long backward seek replays off the GUI thread; busy while it does.
    void busyChanged(bool busy);
    // The live state went to a background seek, which frees it: a view holding a pointer into
    // it (abstractNamespace()) lets go now and takes the new one at the next positionChanged().
    void seekStarted();
    void playingChanged(bool playing);
    void breakpointHit(const QString &why);
    void lineBreakpointsChanged();
    void watchesChanged();
    // A re-run replaying to the place off the GUI thread: statements done of those to replay.
    void rerunProgress(quint64 statements, quint64 of);
    // A re-run started replaying off the GUI thread (true), or ended: installed or dropped.
    void rerunPendingChanged(bool pending);
    // The re-run's new run is about to replace the one on screen (views note what they show).
    void aboutToRerun();

private:
    // new_scene: a scene just opened (decides stepping into collections by its size); false
    // when the same scene is re-run with other options. `ready`: a session and its player made
    // off the GUI thread (a re-run keeping the place), installed as they are.
    void reset(std::shared_ptr<const inflight::Scene> scene, const QString &path, bool new_scene = true,
               std::shared_ptr<RunSession> ready_session = {}, std::unique_ptr<inflight::Player> ready = {});
    void cancelRerun();
    void startIndex();
    // Drops the background navigation under way (its result, and the player a seek took, are
    // then another run's: a new player is installed by the caller).
    void cancelNavigation();
    // Runs a job that makes a Player of this session (a reverse search, a collector switch's
    // replay) on a pool thread; installs it unless a newer job or another session superseded it.
    void runInBackground(std::function<std::unique_ptr<inflight::Player>(const std::atomic<bool> &)> job,
                         std::function<void()> after = {});
    // A seek on a pool thread that takes the player (moved to the job, given back in its
    // result); one asked for meanwhile goes on with the player once the one before gives it back.
    void seekInBackground(std::uint64_t step);
    void startSeek(std::unique_ptr<inflight::Player> player, std::uint64_t step);
    std::uint64_t statementsShown() const; // statements executed at the position on screen
    // One slice of continueToBreakpoint(): `fresh` steps off the stop it starts from unchecked.
    void continueSlice(bool fresh);
    void onTick();
    void moved();
    void primeWatches();
    // Whether the step just taken (e) stops a run, and why. A watch fires when its value
    // changed (or its condition became true) since the state it last saw; continue and play
    // take the state they start from as that baseline (primeWatches()).
    bool stopsAt(const inflight::Event &e, QString *why);
    // Takes snapshot_ from the state now (connected first to sceneLoaded and positionChanged,
    // so that it runs before any view's slot) and lets the lazily taken values lapse.
    // new_run: a scene loaded or re-run under other options (sceneLoaded()): nothing of the
    // snapshot before is shared.
    void takeSnapshot(bool new_run);
    const inflight::Kernel &kernel() const; // the live state: breakpoints, watches, snapshots
    const SessionIndex &index() const;
    std::shared_ptr<RunSession> newSession(std::shared_ptr<const inflight::Scene> scene) const;

    std::shared_ptr<RunSession> session_;               // null without a scene
    std::shared_ptr<const inflight::Scene> base_scene_; // as opened, before any variant
    int variant_ = -1;
    QString path_;
    inflight::GcEra era_ = inflight::GcEra::async;
    const inflight::KernelProfile *kernel_ = nullptr; // chosen in the Collector box; null: as the scene says
    void rerunUnderCollector();                       // after era_ / kernel_ changed: same statement, new run
    bool fast_forward_ = false;
    std::vector<std::pair<inflight::Cost, std::uint64_t>> cost_overrides_;
    IndexLimits index_limits_;
    std::unique_ptr<inflight::Player> player_; // null while a background seek has it
    // The state on screen when a seek took the player: what the controller answers meanwhile.
    struct Shown {
        std::uint64_t position = 0;
        std::uint64_t statements = 0; // statements executed
        bool at_end = true;
        std::optional<inflight::Event> event; // the step just taken, if any
    } shown_;
    std::optional<std::uint64_t> seek_target_; // where the background seek that has the player goes
    std::optional<std::uint32_t> selected_;
    // Line breakpoints (one per line, by line), event breakpoints and watches; each watch keeps
    // the value it last saw: stopsAt() moves them on (see primeWatches()).
    inflight::StopConditions stops_;
    // The values views read at the position shown: taken at every move, and taken when asked.
    std::shared_ptr<const inflight::StepSnapshot> snapshot_;
    mutable PositionValues at_position_;
    static constexpr int kTickMs = 16; // playback timer: one tick a frame
    QTimer timer_;
    QTimer continue_slices_; // the next slice of a continue under way
    IdleHeapTrim heap_trim_;
    double speed_ = 8.0;
    double credit_ = 0.0;
    // The lanes of background work: a newer job of a lane supersedes the one before; a new
    // session cancels all three.
    JobTracker index_jobs_{this};
    JobTracker navigation_jobs_{this}; // seeks, reverse searches, collector switches' replays
    JobTracker rerun_jobs_{this};      // an edited scene replayed to the place shown
};
