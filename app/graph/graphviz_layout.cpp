// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/graphviz_layout.h"

#include "graph/overlap_removal.h"

#include <graphviz/gvc.h>

#include <algorithm>
#include <chrono>
#include <clocale>
#include <cmath>
#include <cstdio>
#include <functional>
#include <mutex>
#include <string>

// The layout plugins are linked in and registered from our own table, so a missing or stale
// plugin config (config6a) cannot break layouts. (Not named lt_preloaded_symbols on purpose.)
extern "C" {
extern gvplugin_library_t gvplugin_dot_layout_LTX_library;
extern gvplugin_library_t gvplugin_neato_layout_LTX_library;
}

namespace graph {

namespace {

lt_symlist_t inflight_graphviz_plugins[] = {
    {"gvplugin_dot_layout_LTX_library", &gvplugin_dot_layout_LTX_library},
    {"gvplugin_neato_layout_LTX_library", &gvplugin_neato_layout_LTX_library},
    {nullptr, nullptr},
};

std::mutex &graphvizMutex()
{
    static std::mutex m;
    return m;
}

// Call with graphvizMutex() held. Created once; lives as long as the process.
GVC_t *graphvizContext()
{
    static GVC_t *gvc = [] {
        agseterr(AGERR);
        return gvContextPlugins(inflight_graphviz_plugins, 0);
    }();
    return gvc;
}

// LC_NUMERIC "C" on this thread only (Graphviz prints and parses numbers with the C library).
class CNumericLocale {
public:
    CNumericLocale()
    {
        static locale_t c = newlocale(LC_NUMERIC_MASK, "C", static_cast<locale_t>(nullptr));
        previous_ = uselocale(c);
    }
    ~CNumericLocale() { uselocale(previous_); }
    CNumericLocale(const CNumericLocale &) = delete;
    CNumericLocale &operator=(const CNumericLocale &) = delete;

private:
    locale_t previous_;
};

char *cs(const char *s) { return const_cast<char *>(s); }

std::string num(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    return buf;
}

enum class Engine { dot, sfdp, neato_kk, neato_major };

const char *engineName(Engine e)
{
    switch (e) {
    case Engine::dot: return "dot";
    case Engine::sfdp: return "sfdp";
    case Engine::neato_kk:
    case Engine::neato_major: return "neato";
    }
    return "?";
}

// Runs Graphviz on the nodes with include[i] set; writes their centres (y down) into out.
// Returns false with a message on failure.
// top_down: dot ranks from top to bottom (else left to right); pack_components: each connected
// component laid out on its own and the components packed side by side.
bool runGraphviz(const LayoutRequest &req, const std::vector<char> &include, Engine engine,
                 std::vector<LayoutPoint> &out, std::string &error, double &graphviz_ms, bool top_down = false,
                 bool pack_components = false)
{
    std::lock_guard<std::mutex> lock(graphvizMutex());
    CNumericLocale c_locale;
    const auto t0 = std::chrono::steady_clock::now();
    GVC_t *gvc = graphvizContext();
    if (!gvc) {
        error = "gvContextPlugins failed";
        return false;
    }
    Agraph_t *g = agopen(cs("inflight"), Agdirected, nullptr);
    if (!g) {
        error = "agopen failed";
        return false;
    }
    const bool large = engine == Engine::sfdp || engine == Engine::neato_major;
    agsafeset(g, cs("splines"), cs("false"), cs(""));
    agsafeset(g, cs("pad"), cs("0"), cs(""));
    if (engine == Engine::dot) {
        agsafeset(g, cs("rankdir"), cs(top_down ? "TB" : "LR"), cs(""));
        agsafeset(g, cs("nodesep"), cs(num(req.gap / 72.0).c_str()), cs(""));
        agsafeset(g, cs("ranksep"), cs(num((req.aspect > 0 ? 1.6 : 2.4) * req.gap / 72.0).c_str()), cs(""));
        if (req.nodes.size() > 40 || pack_components) {
            // Many small components (a process with its sockets each, as in the seed 000
            // scene) stacked in one column would shrink to nothing in a wide panel: an array.
            agsafeset(g, cs("pack"), cs(std::to_string(static_cast<int>(req.gap)).c_str()), cs(""));
            agsafeset(g, cs("packmode"), cs("array"), cs(""));
        }
    } else {
        agsafeset(g, cs("overlap"), cs(engine == Engine::sfdp ? "prism" : "true"), cs(""));
        std::string sep = num(req.gap / 2);
        sep.insert(sep.begin(), '+'); // "+N": an additive margin (GCC 12 misreads "+" + string)
        agsafeset(g, cs("sep"), cs(sep.c_str()), cs(""));
        if (large) {
            // pack=N: components N points apart (the default, 8, is tighter than our gap).
            agsafeset(g, cs("pack"), cs(std::to_string(static_cast<int>(req.gap)).c_str()), cs(""));
            agsafeset(g, cs("packmode"), cs("array"), cs(""));
        }
        if (engine != Engine::sfdp) {
            agsafeset(g, cs("inputscale"), cs("72"), cs(""));
            agsafeset(g, cs("mode"), cs(engine == Engine::neato_kk ? "KK" : "major"), cs(""));
        }
    }
    Agsym_t *shape = agattr(g, AGNODE, cs("shape"), cs("box"));
    Agsym_t *fixed = agattr(g, AGNODE, cs("fixedsize"), cs("true"));
    Agsym_t *width = agattr(g, AGNODE, cs("width"), cs("1"));
    Agsym_t *height = agattr(g, AGNODE, cs("height"), cs("0.5"));
    Agsym_t *label = agattr(g, AGNODE, cs("label"), cs(""));
    Agsym_t *pos = engine == Engine::dot || engine == Engine::sfdp ? nullptr : agattr(g, AGNODE, cs("pos"), cs(""));
    Agsym_t *len = engine == Engine::dot ? nullptr : agattr(g, AGEDGE, cs("len"), cs("1.5"));
    (void)shape;
    (void)fixed;
    (void)label;

    std::vector<Agnode_t *> nodes(req.nodes.size(), nullptr);
    char name[32];
    for (std::size_t i = 0; i < req.nodes.size(); ++i) {
        if (!include[i])
            continue;
        const LayoutNode &n = req.nodes[i];
        std::snprintf(name, sizeof name, "n%zu", i);
        Agnode_t *an = agnode(g, name, 1);
        agxset(an, width, cs(num(std::max(n.width, 1.0) / 72.0).c_str()));
        agxset(an, height, cs(num(std::max(n.height, 1.0) / 72.0).c_str()));
        if (pos && (n.pinned || n.seeded)) {
            // Graphviz's y grows upwards: negate; the result is shifted back by the pins.
            const std::string p = num(n.x) + "," + num(-n.y) + (n.pinned ? "!" : "");
            agxset(an, pos, cs(p.c_str()));
        }
        nodes[i] = an;
    }
    // Index of nodes by key, for the edges.
    std::vector<std::pair<NodeKey, std::size_t>> by_key;
    by_key.reserve(req.nodes.size());
    for (std::size_t i = 0; i < req.nodes.size(); ++i)
        by_key.emplace_back(req.nodes[i].key, i);
    std::sort(by_key.begin(), by_key.end());
    constexpr auto none = static_cast<std::size_t>(-1);
    auto find = [&](NodeKey k) -> std::size_t {
        auto it = std::lower_bound(by_key.begin(), by_key.end(), std::make_pair(k, std::size_t{0}));
        return it != by_key.end() && it->first == k && nodes[it->second] ? it->second : none;
    };
    for (std::size_t i = 0; i < req.edges.size(); ++i) {
        const std::size_t a = find(req.edges[i].from), b = find(req.edges[i].to);
        if (a == none || b == none)
            continue;
        std::snprintf(name, sizeof name, "e%zu", i);
        Agedge_t *e = agedge(g, nodes[a], nodes[b], name, 1); // non-strict: every copy its own edge
        if (e && len) {
            // Long enough for both boxes plus a gap: neato's default (1 inch) would pull wide
            // boxes onto each other.
            const LayoutNode &na = req.nodes[a], &nb = req.nodes[b];
            const double l = (std::max(na.width, na.height) + std::max(nb.width, nb.height)) / 2 + 2 * req.gap;
            agxset(e, len, cs(num(l / 72.0).c_str()));
        }
    }

    const int rc = gvLayout(gvc, g, engineName(engine));
    if (rc != 0) {
        error = std::string("gvLayout(") + engineName(engine) + ") failed";
        agclose(g);
        return false;
    }
    const boxf bb = GD_bb(g);
    for (std::size_t i = 0; i < req.nodes.size(); ++i)
        if (nodes[i])
            out[i] = {ND_coord(nodes[i]).x, bb.UR.y - ND_coord(nodes[i]).y};
    gvFreeLayout(gvc, g);
    agclose(g);
    graphviz_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return true;
}

double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
    return v[v.size() / 2];
}

} // namespace

namespace {

// Bounding box of some nodes at some positions.
struct Box {
    double left = 1e300, top = 1e300, right = -1e300, bottom = -1e300;
    void add(double x, double y, double w, double h)
    {
        left = std::min(left, x - w / 2);
        right = std::max(right, x + w / 2);
        top = std::min(top, y - h / 2);
        bottom = std::max(bottom, y + h / 2);
    }
    bool empty() const { return left > right; }
};

// Connected components of the nodes with keep[i], through edges between two kept non-process
// nodes. Returns the component index per node (-1 where not kept).
std::vector<int> components(const LayoutRequest &req, const std::vector<char> &keep, int &count)
{
    const std::size_t n = req.nodes.size();
    std::vector<std::pair<NodeKey, std::size_t>> by_key;
    for (std::size_t i = 0; i < n; ++i)
        by_key.emplace_back(req.nodes[i].key, i);
    std::sort(by_key.begin(), by_key.end());
    auto find = [&](NodeKey k) -> long {
        auto it = std::lower_bound(by_key.begin(), by_key.end(), std::make_pair(k, std::size_t{0}));
        return it != by_key.end() && it->first == k ? static_cast<long>(it->second) : -1;
    };
    std::vector<long> parent(n);
    for (std::size_t i = 0; i < n; ++i)
        parent[i] = static_cast<long>(i);
    std::function<long(long)> root = [&](long i) { return parent[i] == i ? i : parent[i] = root(parent[i]); };
    for (const LayoutEdge &e : req.edges) {
        const long a = find(e.from), b = find(e.to);
        if (a < 0 || b < 0 || !keep[a] || !keep[b] || req.nodes[a].process || req.nodes[b].process)
            continue;
        parent[root(a)] = root(b);
    }
    std::vector<int> comp(n, -1);
    std::vector<long> index_of_root(n, -1);
    count = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (!keep[i])
            continue;
        const long r = root(static_cast<long>(i));
        if (index_of_root[r] < 0)
            index_of_root[r] = count++;
        comp[i] = static_cast<int>(index_of_root[r]);
    }
    return comp;
}

// One connected group of sockets as dot drew it, in both directions: sizes and the members'
// centres relative to the group's top left corner.
struct Part {
    std::vector<std::size_t> members;
    double w[2] = {0, 0}, h[2] = {0, 0};
    std::vector<LayoutPoint> local[2];
};

// Rows of parts no wider than `width` (a part wider than it gets a row of its own). Returns each
// part's top left corner and the size of the whole.
struct Shelves {
    std::vector<LayoutPoint> corner;
    double width = 0, height = 0;
};

Shelves shelve(const std::vector<Part> &parts, int dir, double width, double gap)
{
    Shelves out;
    out.corner.resize(parts.size());
    std::vector<std::pair<std::size_t, std::size_t>> rows; // [first, last) part of each row
    std::vector<double> row_width, row_height;
    double x = 0;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const double w = parts[i].w[dir];
        if (rows.empty() || (x > 0 && x + w > width)) {
            rows.emplace_back(i, i);
            row_width.push_back(0);
            row_height.push_back(0);
            x = 0;
        }
        rows.back().second = i + 1;
        x += (x > 0 ? gap : 0) + w;
        row_width.back() = x;
        row_height.back() = std::max(row_height.back(), parts[i].h[dir]);
    }
    for (double w : row_width)
        out.width = std::max(out.width, w);
    double y = 0;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        // Each row centred in the widest, each part centred in its row's height.
        double cx = (out.width - row_width[r]) / 2;
        for (std::size_t i = rows[r].first; i < rows[r].second; ++i) {
            out.corner[i] = {cx, y + (row_height[r] - parts[i].h[dir]) / 2};
            cx += parts[i].w[dir] + gap;
        }
        y += row_height[r] + (r + 1 < rows.size() ? gap : 0);
    }
    out.height = y;
    return out;
}

} // namespace

bool arrangeForAspect(const LayoutRequest &req, LayoutResult &result)
{
    const std::size_t n = req.nodes.size();
    std::vector<char> sockets(n, 0);
    bool any_socket = false;
    for (std::size_t i = 0; i < n; ++i) {
        sockets[i] = !req.nodes[i].process;
        any_socket = any_socket || sockets[i];
    }
    int count = 0;
    const std::vector<int> comp = components(req, sockets, count);
    std::vector<Part> parts(static_cast<std::size_t>(count));
    for (std::size_t i = 0; i < n; ++i)
        if (comp[i] >= 0)
            parts[static_cast<std::size_t>(comp[i])].members.push_back(i);
    // Each group both ways: dot packs the components of one drawing apart, so two calls do all.
    for (int dir = 0; dir < 2 && any_socket; ++dir) {
        std::vector<LayoutPoint> gv(n);
        double ms = 0;
        if (!runGraphviz(req, sockets, Engine::dot, gv, result.error, ms, dir == 1, true))
            return false;
        result.graphviz_ms += ms;
        for (Part &part : parts) {
            Box b;
            for (std::size_t i : part.members)
                b.add(gv[i].x, gv[i].y, req.nodes[i].width, req.nodes[i].height);
            part.w[dir] = b.right - b.left;
            part.h[dir] = b.bottom - b.top;
            for (std::size_t i : part.members)
                part.local[dir].push_back({gv[i].x - b.left, gv[i].y - b.top});
        }
    }
    // Processes: a column on the left or a row on top.
    double column_w = 0, column_h = 0, row_w = 0, row_h = 0;
    std::size_t processes = 0;
    for (std::size_t i = 0; i < n; ++i)
        if (!sockets[i]) {
            column_w = std::max(column_w, req.nodes[i].width);
            column_h += (processes ? req.gap : 0) + req.nodes[i].height;
            row_w += (processes ? req.gap : 0) + req.nodes[i].width;
            row_h = std::max(row_h, req.nodes[i].height);
            ++processes;
        }
    const double part_gap = 1.5 * req.gap, side_gap = 3 * req.gap;
    // The arrangement the pane shows at the largest scale.
    double best_scale = -1;
    int best_dir = 0;
    bool best_on_top = false;
    Shelves best;
    for (int dir = 0; dir < 2; ++dir) {
        double widest = 0, total = 0;
        for (const Part &p : parts) {
            widest = std::max(widest, p.w[dir]);
            total += p.w[dir] + part_gap;
        }
        std::vector<double> widths{widest, total};
        double run = 0;
        for (const Part &p : parts) {
            run += p.w[dir] + (run > 0 ? part_gap : 0);
            widths.push_back(std::max(run, widest));
        }
        for (double width : widths) {
            const Shelves shelves = shelve(parts, dir, width, part_gap);
            for (int on_top = 0; on_top < 2; ++on_top) {
                if (on_top && !processes)
                    continue;
                double w = shelves.width, h = shelves.height;
                if (processes && on_top) {
                    w = std::max(w, row_w);
                    h += (any_socket ? side_gap : 0) + row_h;
                } else if (processes) {
                    w += (any_socket ? side_gap : 0) + column_w;
                    h = std::max(h, column_h);
                }
                const double scale = std::min(req.aspect / std::max(w, 1.0), 1.0 / std::max(h, 1.0));
                // A clearly larger scale wins; else the fewer rows (the earlier candidate).
                if (scale > best_scale * 1.001) {
                    best_scale = scale;
                    best_dir = dir;
                    best_on_top = on_top;
                    best = shelves;
                }
            }
        }
    }
    const double sockets_left = processes && !best_on_top && any_socket ? column_w + side_gap : 0;
    const double sockets_top = processes && best_on_top && any_socket ? row_h + side_gap : 0;
    const double sockets_w = best.width;
    for (std::size_t p = 0; p < parts.size(); ++p)
        for (std::size_t k = 0; k < parts[p].members.size(); ++k) {
            const LayoutPoint &l = parts[p].local[best_dir][k];
            result.positions[parts[p].members[k]] = {sockets_left + best.corner[p].x + l.x,
                                                     sockets_top + best.corner[p].y + l.y};
        }
    // Processes centred along the sockets' side.
    double along = 0;
    const double span = best_on_top ? row_w : column_h;
    const double room = best_on_top ? std::max(sockets_w, row_w) : std::max(best.height, column_h);
    along = (room - span) / 2;
    for (std::size_t i = 0; i < n; ++i)
        if (!sockets[i]) {
            const LayoutNode &node = req.nodes[i];
            if (best_on_top) {
                result.positions[i] = {along + node.width / 2, node.height / 2};
                along += node.width + req.gap;
            } else {
                result.positions[i] = {column_w - node.width / 2, along + node.height / 2};
                along += node.height + req.gap;
            }
        }
    result.engine = "dot";
    return true;
}

std::string graphvizVersion()
{
    std::lock_guard lock(graphvizMutex());
    GVC_t *gvc = graphvizContext();
    const char *v = gvc ? gvcVersion(gvc) : nullptr;
    return v ? v : "unknown";
}

LayoutResult computeLayout(const LayoutRequest &req)
{
    const auto t0 = std::chrono::steady_clock::now();
    LayoutResult result;
    result.generation = req.generation;
    const std::size_t n = req.nodes.size();
    result.positions.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        result.positions[i] = {req.nodes[i].x, req.nodes[i].y};

    std::vector<char> pinned(n, 0);
    std::size_t pinned_count = 0;
    for (std::size_t i = 0; i < n; ++i)
        pinned_count += pinned[i] = req.nodes[i].pinned && !req.full;
    const bool incremental = pinned_count > 0;
    const bool large = n > static_cast<std::size_t>(req.dot_max_nodes);
    std::vector<char> placed = pinned; // nodes whose position is final before overlap removal
    std::vector<char> block(n, 0);     // placed as part of a new block

    if (pinned_count == n) {
        result.engine = "none";
    } else if (!incremental && req.aspect > 0 && n <= kArrangeMaxNodes) {
        // ---- a fresh layout of a small graph, to the pane's shape -------------------------------
        if (!arrangeForAspect(req, result))
            return result;
        std::fill(placed.begin(), placed.end(), 1);
    } else if (!incremental) {
        // ---- a fresh layout of everything ----------------------------------------------------
        const Engine engine = large ? Engine::sfdp : Engine::dot;
        result.engine = engineName(engine);
        // Large layouts leave processes to us: a process holding many fds would make one
        // component of everything and defeat component packing.
        std::vector<char> include(n, 1);
        if (large)
            for (std::size_t i = 0; i < n; ++i)
                include[i] = !req.nodes[i].process;
        std::vector<LayoutPoint> gv(n);
        if (!runGraphviz(req, include, engine, gv, result.error, result.graphviz_ms))
            return result;
        for (std::size_t i = 0; i < n; ++i)
            if (include[i])
                result.positions[i] = gv[i];
        if (large) {
            // Processes: a column on the left of everything else.
            Box b;
            for (std::size_t i = 0; i < n; ++i)
                if (include[i])
                    b.add(result.positions[i].x, result.positions[i].y, req.nodes[i].width, req.nodes[i].height);
            double y = b.empty() ? 0 : b.top;
            const double left = b.empty() ? 0 : b.left;
            for (std::size_t i = 0; i < n; ++i)
                if (!include[i]) {
                    result.positions[i] = {left - 4 * req.gap - req.nodes[i].width / 2, y + req.nodes[i].height / 2};
                    y += req.nodes[i].height + req.gap;
                }
        }
        std::fill(placed.begin(), placed.end(), 1);
    } else {
        // ---- incremental: survivors stay; new nodes are placed around them ----------------------
        // New nodes tied by in-flight copies to placed ones ("attached") are placed by neato
        // with the survivors pinned. The others - new sockets held only by fds, an expanded
        // aggregate - form blocks: each connected group is laid out on its own (dot/sfdp, so a
        // ring looks like a ring) and moved as a whole to the free spot nearest its seeds.
        std::vector<char> attached(n, 0);
        {
            // Multi-source search from the pinned nodes over in-flight edges.
            std::vector<char> keep(n, 1);
            int count = 0;
            std::vector<int> comp = components(req, keep, count);
            std::vector<char> comp_pinned(static_cast<std::size_t>(count), 0);
            for (std::size_t i = 0; i < n; ++i)
                if (pinned[i] && !req.nodes[i].process)
                    comp_pinned[static_cast<std::size_t>(comp[i])] = 1;
            for (std::size_t i = 0; i < n; ++i)
                attached[i] = !pinned[i] && !req.nodes[i].process && comp_pinned[static_cast<std::size_t>(comp[i])];
        }
        std::vector<char> detached(n, 0);
        bool any_detached = false, any_attached = false;
        for (std::size_t i = 0; i < n; ++i) {
            detached[i] = !pinned[i] && !attached[i];
            any_detached |= detached[i];
            any_attached |= attached[i];
        }
        if (any_detached) {
            // One layout for all new blocks (component by component it would be many calls).
            LayoutRequest sub;
            sub.full = true;
            sub.gap = req.gap;
            sub.dot_max_nodes = req.dot_max_nodes;
            std::vector<std::size_t> index;
            for (std::size_t i = 0; i < n; ++i)
                if (detached[i]) {
                    LayoutNode node = req.nodes[i];
                    node.pinned = false;
                    node.process = false; // a new process is a block of its own
                    sub.nodes.push_back(node);
                    index.push_back(i);
                }
            for (const LayoutEdge &e : req.edges)
                sub.edges.push_back(e); // edges to nodes outside `sub` are ignored
            std::vector<LayoutPoint> pos(sub.nodes.size());
            {
                std::vector<char> include(sub.nodes.size(), 1);
                // dot draws a small new group as ranks (as in a full layout); a bigger one - an
                // expanded aggregate - reads better force-directed (a ring as a circle).
                const bool sub_large =
                    sub.nodes.size() > std::min<std::size_t>(40, static_cast<std::size_t>(req.dot_max_nodes));
                double ms = 0;
                if (!runGraphviz(sub, include, sub_large ? Engine::sfdp : Engine::dot, pos, result.error, ms))
                    return result;
                result.graphviz_ms += ms;
                result.engine = sub_large ? "sfdp" : "dot";
            }
            for (std::size_t k = 0; k < index.size(); ++k)
                result.positions[index[k]] = pos[k];
            // Blocks: connected groups of the new nodes (processes stand alone).
            int count = 0;
            std::vector<int> comp = components(req, detached, count);
            std::vector<Box> bounds(static_cast<std::size_t>(count));
            std::vector<double> seed_x(static_cast<std::size_t>(count), 0), seed_y(static_cast<std::size_t>(count), 0);
            std::vector<int> seeds(static_cast<std::size_t>(count), 0);
            for (std::size_t i = 0; i < n; ++i) {
                if (!detached[i])
                    continue;
                const auto c = static_cast<std::size_t>(comp[i]);
                bounds[c].add(result.positions[i].x, result.positions[i].y, req.nodes[i].width, req.nodes[i].height);
                if (req.nodes[i].seeded) {
                    seed_x[c] += req.nodes[i].x;
                    seed_y[c] += req.nodes[i].y;
                    ++seeds[c];
                }
            }
            // Unseeded blocks go right of everything, top-aligned.
            Box all;
            for (std::size_t i = 0; i < n; ++i)
                if (pinned[i])
                    all.add(req.nodes[i].x, req.nodes[i].y, req.nodes[i].width, req.nodes[i].height);
            std::vector<PlacedBox> boxes;
            for (std::size_t i = 0; i < n; ++i)
                if (pinned[i])
                    boxes.push_back({req.nodes[i].x, req.nodes[i].y, req.nodes[i].width, req.nodes[i].height});
            const std::size_t first_block = boxes.size();
            double fallback_y = all.empty() ? 0 : all.top;
            for (int c = 0; c < count; ++c) {
                const Box &b = bounds[static_cast<std::size_t>(c)];
                const double w = b.right - b.left, h = b.bottom - b.top;
                double x, y;
                if (seeds[static_cast<std::size_t>(c)]) {
                    x = seed_x[static_cast<std::size_t>(c)] / seeds[static_cast<std::size_t>(c)];
                    y = seed_y[static_cast<std::size_t>(c)] / seeds[static_cast<std::size_t>(c)];
                } else {
                    x = (all.empty() ? 0 : all.right) + 3 * req.gap + w / 2;
                    y = fallback_y + h / 2;
                    fallback_y += h + req.gap;
                }
                boxes.push_back({x, y, w, h});
            }
            removeOverlaps(boxes, req.gap / 2);
            for (std::size_t i = 0; i < n; ++i) {
                if (!detached[i])
                    continue;
                const auto c = static_cast<std::size_t>(comp[i]);
                const Box &b = bounds[c];
                const PlacedBox &to = boxes[first_block + c];
                result.positions[i].x += to.x - (b.left + b.right) / 2;
                result.positions[i].y += to.y - (b.top + b.bottom) / 2;
                placed[i] = block[i] = 1;
            }
        }
        if (any_attached) {
            const Engine engine = large ? Engine::neato_major : Engine::neato_kk;
            result.engine = engineName(engine);
            LayoutRequest sub = req;
            std::vector<char> include(n, 1);
            for (std::size_t i = 0; i < n; ++i) {
                sub.nodes[i].pinned = placed[i];
                sub.nodes[i].x = result.positions[i].x;
                sub.nodes[i].y = result.positions[i].y;
                if (large && req.nodes[i].process)
                    include[i] = 0;
            }
            std::vector<LayoutPoint> gv(n);
            double ms = 0;
            if (!runGraphviz(sub, include, engine, gv, result.error, ms))
                return result;
            result.graphviz_ms += ms;
            // Shift the drawing back so pinned nodes are where they were.
            std::vector<double> dx, dy;
            for (std::size_t i = 0; i < n; ++i)
                if (include[i] && placed[i]) {
                    dx.push_back(sub.nodes[i].x - gv[i].x);
                    dy.push_back(sub.nodes[i].y - gv[i].y);
                }
            const double ox = median(dx), oy = median(dy);
            for (std::size_t i = 0; i < n; ++i)
                if (attached[i])
                    result.positions[i] = {gv[i].x + ox, gv[i].y + oy};
        }
    }

    // Remove overlaps: pinned nodes first (in request order), then new blocks, then the rest.
    std::vector<std::size_t> order;
    order.reserve(n);
    for (int pass = 0; pass < 3; ++pass)
        for (std::size_t i = 0; i < n; ++i)
            if ((pass == 0 && pinned[i]) || (pass == 1 && !pinned[i] && block[i]) ||
                (pass == 2 && !pinned[i] && !block[i]))
                order.push_back(i);
    std::vector<PlacedBox> boxes(n);
    for (std::size_t k = 0; k < n; ++k) {
        const std::size_t i = order[k];
        boxes[k] = {result.positions[i].x, result.positions[i].y, req.nodes[i].width, req.nodes[i].height};
    }
    const auto overlap_start = std::chrono::steady_clock::now();
    // A safety net: Graphviz already keeps its own spacing; this only guarantees no overlaps
    // (and places pinned nodes that grew).
    result.moved = removeOverlaps(boxes, std::min(6.0, req.gap / 4));
    result.overlap_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - overlap_start).count();
    for (std::size_t k = 0; k < n; ++k)
        result.positions[order[k]] = {boxes[k].x, boxes[k].y};

    Box all;
    for (std::size_t i = 0; i < n; ++i)
        all.add(result.positions[i].x, result.positions[i].y, req.nodes[i].width, req.nodes[i].height);
    if (!all.empty()) {
        result.left = all.left;
        result.top = all.top;
        result.right = all.right;
        result.bottom = all.bottom;
    }
    result.ok = true;
    result.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return result;
}

} // namespace graph
