// SPDX-License-Identifier: GPL-3.0-or-later
// The SCCs the graph collector found in the current collection, in the order it found them,
// with the verdict on each: judging (members checked so far), garbage, or alive. Derived from
// the recorded run (controller.timeline()): scc_found, vertex_dead and scc_verdict events
// between the collection's gc_begin and the current position. After a collection has ended,
// until the next one begins, it shows that collection's SCCs (see finished()).
#pragma once

#include "dock_list_model.h"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace docks {

class SccModel : public DockListModel {
    Q_OBJECT
public:
    struct Scc {
        std::uint32_t root = inflight::npos;
        std::vector<std::uint32_t> members;   // in push order (root first); may be partial on the fast path
        std::vector<std::int8_t> member_dead; // per member: -1 not judged yet, 0 alive, 1 dead
        std::vector<std::int64_t> reason;     // per member: vertex_dead's reason
        std::int64_t size = 0;                // as scc_found says
        int verdict = -1;                     // -1 judging, 0 alive, 1 garbage
        bool cyclic = false;
        bool fast = false; // found by unix_walk_scc_fast()
    };

    explicit SccModel(PlayerController &controller, QObject *parent = nullptr);

    const std::vector<Scc> &sccs() const { return sccs_; }
    // The collection shown: its number (0 = none yet), whether it has ended / was skipped.
    std::uint32_t collection() const { return run_; }
    bool finished() const { return finished_; }
    bool skipped() const { return skipped_; }
    // The collection lies past PlayerController::kIndexCap: its SCC events were not recorded.
    bool unrecorded() const { return unrecorded_; }

protected:
    std::vector<Row> collect() const override;
    QColor swatch(const Row &r) const override;

private:
    void track() const;
    void rebuildIndex() const;

    // Derived state, updated incrementally when the position moves forward in one collection.
    mutable bool indexed_ = false;
    mutable std::uint64_t indexed_data_ = 0; // the timeline indexed (RecordedEvents::contents_id())
    mutable std::size_t indexed_size_ = 0;
    mutable std::uint64_t begin_step_ = 0; // gc_begin of the collection shown (0 = none)
    mutable std::uint64_t done_to_ = 0;    // events up to this step are folded in
    mutable std::size_t next_row_ = 0;     // the next timeline row to fold in
    mutable bool unrecorded_ = false;
    mutable std::vector<std::uint32_t> stack_; // the walk's vertex stack, rebuilt from vertex_visit
    mutable std::vector<Scc> sccs_;
    mutable std::uint32_t run_ = 0;
    // Rows made so far: an SCC's row is made again only when that SCC changed (the last one).
    mutable std::vector<Row> rows_;
    mutable std::size_t clean_ = 0; // rows_[i] is current for i < clean_
    mutable std::optional<std::uint32_t> rows_sel_;
    Row makeRow(std::size_t i) const;
    // SCC i was judged alive, the collection has ended, and every member is leaked.
    bool leaked(std::size_t i) const;
    mutable bool finished_ = false, skipped_ = false;
};

} // namespace docks
