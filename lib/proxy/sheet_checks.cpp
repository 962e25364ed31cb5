// The sheet builder's authoring checks (docs/proxy.md#authoring-checks): every defect named, not
// just the first.
#include <algorithm>
#include <array>

#include "proxy/sheet_work.h"

namespace weft::sheet_detail {

namespace {

// ---- check -----------------------------------------------------------------------------------------

std::array<uint32_t, 3> sorted_corners(std::span<const uint32_t> w, uint32_t t) {
    std::array<uint32_t, 3> c{w[3 * t], w[3 * t + 1], w[3 * t + 2]};
    std::sort(c.begin(), c.end());
    return c;
}

// Same welded vertices, as sets: (a, a, b) and (a, b, b) are one line twice.
bool same_corner_set(std::span<const uint32_t> w, uint32_t t, uint32_t u) {
    const uint32_t* x = &w[3 * t];
    const uint32_t* y = &w[3 * u];
    const bool x_distinct = x[0] != x[1] && x[1] != x[2] && x[2] != x[0];
    const bool y_distinct = y[0] != y[1] && y[1] != y[2] && y[2] != y[0];
    if (x_distinct != y_distinct) return false;
    if (x_distinct) {  // the common case: three corners each, in some order
        auto in_y = [&](uint32_t v) { return v == y[0] || v == y[1] || v == y[2]; };
        return in_y(x[0]) && in_y(x[1]) && in_y(x[2]);
    }
    auto a = sorted_corners(w, t), b = sorted_corners(w, u);
    auto ea = std::unique(a.begin(), a.end()), eb = std::unique(b.begin(), b.end());
    return std::equal(a.begin(), ea, b.begin(), eb);
}

// Height of a triangle over its longest side: below the weld tolerance it has no area at the
// resolution the weld works at (its corners lie within the tolerance of one line).
double height(const Vec3& a, const Vec3& b, const Vec3& c) {
    const double longest = std::max({distance(a, b), distance(b, c), distance(c, a)});
    if (!(longest > 0)) return 0;
    return length(cross(b - a, c - a)) / longest;
}

/// What a warning says of a triangle dropped whatever the options: it was unambiguous.
constexpr const char* kDroppedHint = " Dropped.";

}  // namespace

std::string triangles_text(const Source& s, std::span<const uint32_t> triangles, std::span<const uint32_t> to_source) {
    std::string out;
    const size_t shown = std::min<size_t>(triangles.size(), 8);
    for (size_t i = 0; i < shown; ++i) {
        const uint32_t t = to_source.empty() ? triangles[i] : to_source[triangles[i]];
        out += (i ? ", " : "") + s.triangle_text(t) + " " + s.corners_text(t);
    }
    if (triangles.size() > shown) out += " and " + std::to_string(triangles.size() - shown) + " more";
    return out;
}

/// Non-finite positions of used vertices: errors, and their triangles marked.
void sheet_check_vertices(SheetWork& work) {
    const Source& src = work.src;
    SheetStats& stats = work.stats;
    Issues& issues = work.issues;
    const uint32_t vertex_count = work.vertex_count, triangle_count = work.triangle_count;
    std::vector<uint8_t>& defect = work.defect;
    defect.assign(triangle_count, 0);
    {
        std::vector<uint8_t> used(vertex_count, 0);
        for (uint32_t i : src.indices) used[i] = 1;
        std::vector<uint8_t> finite(vertex_count, 1);
        for (uint32_t v = 0; v < vertex_count; ++v) {
            if (!used[v] || is_finite(src.positions[v])) continue;
            finite[v] = 0;
            ++stats.non_finite_vertices;
            issues.push_back({"NON_FINITE_VERTEX", Severity::error,
                              src.file() + ": " + src.vertex_text(v) +
                                  " is not a finite position. Fix or delete the vertex in the modelling tool and "
                                  "re-export.",
                              src.vertex_pointer(v)});
        }
        for (uint32_t t = 0; t < triangle_count; ++t)
            for (int k = 0; k < 3; ++k)
                if (!finite[src.indices[3 * t + k]]) defect[t] |= kNonFinite;
    }
}

/// The weld, then each triangle: repeated indices and no area at the weld's resolution.
void sheet_weld_and_check_triangles(SheetWork& work) {
    const Source& src = work.src;
    const SheetOptions& options = work.options;
    SheetStats& stats = work.stats;
    Issues& issues = work.issues;
    const uint32_t triangle_count = work.triangle_count;
    std::vector<uint8_t>& defect = work.defect;
    const Severity drop_severity = work.drop_severity;
    const std::string& drop_hint = work.drop_hint;
    const double diagonal = weld_tolerance_for(src.positions, 1.0);  // the garment's bounding-box diagonal
    const double tolerance = options.weld_tolerance ? *options.weld_tolerance : options.weld_relative * diagonal;
    work.weld = weld_positions(src.positions, tolerance);
    const WeldResult& weld = work.weld;
    stats.weld_tolerance = weld.tolerance;
    work.welded_count = static_cast<uint32_t>(weld.unique_count());
    std::vector<uint32_t>& welded = work.welded;
    welded.resize(src.indices.size());
    for (size_t i = 0; i < welded.size(); ++i) welded[i] = weld.remap[src.indices[i]];
    auto welded_position = [&](uint32_t w) -> const Vec3& { return src.positions[weld.first[w]]; };
    // A triangle lower than the weld tolerance has no area at the weld's resolution. The floor,
    // 1e-12 of the garment's size, catches corners that were collinear in the file and came out of
    // the node transform a rounding error off the line, when welding is exact.
    const double flat = std::max(weld.tolerance, 1e-12 * diagonal);

    // ---- check: triangles --------------------------------------------------------------------------
    for (uint32_t t = 0; t < triangle_count; ++t) {
        const uint32_t a = src.indices[3 * t], b = src.indices[3 * t + 1], c = src.indices[3 * t + 2];
        if (a == b || b == c || c == a) {
            // It lies on one edge (or a point): dropping it changes no surface.
            defect[t] |= kRepeatedIndex | kDropped;
            ++stats.repeated_index_triangles;
            const uint32_t twice = (a == b || a == c) ? a : b;
            issues.push_back({"REPEATED_INDEX_TRIANGLE", Severity::warning,
                              src.file() + ": " + src.triangle_text(t) + " " + src.corners_text(t) + " names vertex " +
                                  std::to_string(src.local_vertex(twice)) + " twice, at " +
                                  position_text(src.positions[twice]) + ": a triangle with no area, lying on one edge." +
                                  kDroppedHint,
                              src.triangle_pointer(t)});
            continue;
        }
        if (defect[t] & kNonFinite) continue;
        const uint32_t wa = welded[3 * t], wb = welded[3 * t + 1], wc = welded[3 * t + 2];
        const bool collapsed = wa == wb || wb == wc || wc == wa;
        if (collapsed || height(welded_position(wa), welded_position(wb), welded_position(wc)) <= flat) {
            // Two corners welded into one: it lies on one edge, and dropping it changes no surface.
            // Three on a line: its neighbours may meet along it at a T, which dropping would open.
            defect[t] |= collapsed ? kZeroArea | kDropped : kZeroArea;
            ++stats.zero_area_triangles;
            issues.push_back({"ZERO_AREA_TRIANGLE", collapsed ? Severity::warning : drop_severity,
                              src.file() + ": " + src.triangle_text(t) + " " + src.corners_text(t) + " at " +
                                  position_text(src.positions[a]) + ", " + position_text(src.positions[b]) + ", " +
                                  position_text(src.positions[c]) + " has no area: " +
                                  (collapsed ? "two of its corners weld into one"
                                             : "its corners lie on one line") +
                                  " (weld tolerance " + metres_text(weld.tolerance) + ")." + (collapsed ? kDroppedHint : drop_hint),
                              src.triangle_pointer(t)});
        }
    }
}

namespace {

/// Whether triangle `u` runs its corners the other way round from `t` (the same welded vertices).
bool wound_against(std::span<const uint32_t> w, uint32_t t, uint32_t u) {
    for (int k = 0; k < 3; ++k)
        if (w[3 * u + k] == w[3 * t]) return w[3 * u + (k + 1) % 3] == w[3 * t + 2];
    return false;
}

/// Whether triangle `t` runs the edge `e` (of its sides) from `a` to `b`.
bool runs(std::span<const uint32_t> w, const EdgeTable& table, uint32_t t, uint32_t e, uint32_t& a, uint32_t& b) {
    for (int k = 0; k < 3; ++k)
        if (table.triangle_edges[t][k] == e) {
            a = w[3 * t + k], b = w[3 * t + (k + 1) % 3];
            return true;
        }
    return false;
}

/// Per triangle, whether it is the back of doubled faces, to drop (docs/proxy.md#doubled-faces): of a
/// pair of defect-free triangles over the same welded vertices, wound against each other, with no
/// third copy. Which twin is the back follows the winding of the sheet around it: a twin running an
/// edge against a kept neighbour is kept (its neighbours decided in turn); a piece doubled all over
/// keeps its lowest-numbered triangle's side. `twin`: per triangle of a pair, the other.
std::vector<uint8_t> doubled_backs(const SheetWork& work, std::span<const uint32_t> original, std::vector<uint32_t>& twin) {
    const std::vector<uint32_t>& w = work.welded;
    const EdgeTable& table = work.full;
    const uint32_t n = work.triangle_count;
    std::vector<uint32_t> copies(n, 0);
    twin.assign(n, unset_index);
    for (uint32_t t = 0; t < n; ++t)
        if (original[t] != unset_index) ++copies[original[t]];
    for (uint32_t t = 0; t < n; ++t) {
        const uint32_t o = original[t];
        if (o == unset_index || copies[o] != 1 || work.defect[t] != kDuplicate || work.defect[o] != 0 || !wound_against(w, o, t))
            continue;
        twin[o] = t, twin[t] = o;
    }
    std::vector<uint8_t> back(n, 0), settled(n, 0);
    std::vector<uint32_t> queue;
    for (uint32_t t = 0; t < n; ++t)
        if (work.defect[t] == 0 && twin[t] == unset_index) settled[t] = 1, queue.push_back(t);
    auto keep = [&](uint32_t t) {
        settled[t] = settled[twin[t]] = 1;
        back[twin[t]] = 1;
        queue.push_back(t);
    };
    for (uint32_t seed = 0;; ++seed) {
        for (size_t q = 0; q < queue.size(); ++q)
            for (uint32_t e : table.triangle_edges[queue[q]]) {
                if (e == no_edge) continue;
                uint32_t a = 0, b = 0, c = 0, d = 0;
                runs(w, table, queue[q], e, a, b);
                for (uint32_t f : table.faces(e))
                    if (twin[f] != unset_index && !settled[f] && runs(w, table, f, e, c, d) && c == b && d == a) keep(f);
            }
        queue.clear();
        while (seed < n && (twin[seed] == unset_index || settled[seed])) ++seed;
        if (seed >= n) break;
        keep(seed);
    }
    return back;
}

}  // namespace

/// Triangles covering the same welded vertices as an earlier one: the back of a piece modelled as
/// doubled faces is dropped with a warning, any other duplicate refused (or dropped with repair).
void sheet_find_duplicates(SheetWork& work) {
    const Source& src = work.src;
    SheetStats& stats = work.stats;
    Issues& issues = work.issues;
    const uint32_t triangle_count = work.triangle_count, welded_count = work.welded_count;
    const std::vector<uint32_t>& welded = work.welded;
    std::vector<uint8_t>& defect = work.defect;
    // Every triangle's edges, defects included: what the file has (NON_MANIFOLD_EDGE counts them all
    // when refusing, and duplicates are found through the edges they share).
    work.full = build_edge_table(welded, welded_count);
    const EdgeTable& full = work.full;
    std::vector<uint32_t> original(triangle_count, unset_index);  // per duplicate, the earlier triangle it repeats
    {
        std::vector<uint32_t> point_triangle(welded_count, unset_index);  // a triangle whose corners all weld into one
        for (uint32_t t = 0; t < triangle_count; ++t) {
            uint32_t e = unset_index;
            for (uint32_t side : full.triangle_edges[t])
                if (side != no_edge) {
                    e = side;
                    break;
                }
            if (e == unset_index) {
                uint32_t& first = point_triangle[welded[3 * t]];
                if (first == unset_index) first = t;
                else original[t] = first;
            } else {
                for (uint32_t u : full.faces(e)) {
                    if (u >= t) break;
                    if (same_corner_set(welded, t, u)) {
                        original[t] = u;
                        break;
                    }
                }
            }
            if (original[t] != unset_index) defect[t] |= kDuplicate, ++stats.duplicate_triangles;
        }
    }
    std::vector<uint32_t> twin, copies(triangle_count, 0);
    for (uint32_t t = 0; t < triangle_count; ++t)
        if (original[t] != unset_index) ++copies[original[t]];
    const std::vector<uint8_t> back = doubled_backs(work, original, twin);
    std::vector<uint32_t> backs;
    for (uint32_t t = 0; t < triangle_count; ++t) {
        if (back[t]) {
            // The back twin is the one dropped: the file's later copy, or its earlier one where the
            // later runs with the sheet around it.
            if (original[t] == unset_index) defect[t] |= kDuplicate, defect[twin[t]] &= ~kDuplicate;
            defect[t] |= kDoubled;
            backs.push_back(t);
            continue;
        }
        if (original[t] == unset_index || back[original[t]]) continue;
        const uint32_t o = original[t];
        // One copy of a clean triangle, the same way round: the same face twice, the copy dropped. A
        // copy of a triangle lying on one edge is dropped already.
        const bool on_edge = (defect[t] & kDropped) != 0;
        const bool copy = !on_edge && copies[o] == 1 && defect[t] == kDuplicate && defect[o] == 0 && !wound_against(welded, o, t);
        if (copy) defect[t] |= kDropped;
        const std::string what = copy      ? std::string(", the same way round: the same face twice.") + kDroppedHint
                                 : on_edge ? std::string(": a doubled face, lying on one edge.") + kDroppedHint
                                           : ": a doubled face." + work.drop_hint;
        issues.push_back({"DUPLICATE_TRIANGLE", copy || on_edge ? Severity::warning : work.drop_severity,
                          src.file() + ": " + src.triangle_text(t) + " " + src.corners_text(t) + " at " +
                              position_text(src.positions[src.indices[3 * t]]) + " covers the same welded vertices as " +
                              src.triangle_text(o) + " " + src.corners_text(o) + what,
                          src.triangle_pointer(t)});
    }
    if (backs.empty()) return;
    const uint32_t t = backs.front(), o = twin[t];
    issues.push_back({"DOUBLED_FACES", Severity::warning,
                      src.file() + ": " + std::to_string(backs.size()) + " triangle" + (backs.size() == 1 ? "" : "s") +
                          " (" + src.triangle_text(t) + " " + src.corners_text(t) + " over " + src.triangle_text(o) + " " +
                          src.corners_text(o) + (backs.size() > 1 ? ", and the rest" : "") +
                          ") are the back of a sheet modelled as doubled faces, each wound against its front: dropped, "
                          "the sheet simulated as one layer with both sides bound to it.",
                      src.triangle_pointer(t)});
}

/// The triangles a sheet would be built from, and their edges.
void sheet_keep_clean(SheetWork& work) {
    const SheetOptions& options = work.options;
    SheetStats& stats = work.stats;
    const uint32_t triangle_count = work.triangle_count;
    const std::vector<uint8_t>& defect = work.defect;
    std::vector<uint32_t>& welded = work.welded;
    // The triangles a sheet would be built from.
    std::vector<uint32_t>& kept = work.kept;  // clean triangle -> source triangle
    kept.reserve(triangle_count);
    for (uint32_t t = 0; t < triangle_count; ++t)
        if (defect[t] == 0) kept.push_back(t);
    for (uint32_t t = 0; t < triangle_count; ++t)
        if (options.repair ? (defect[t] & ~kNonFinite) != 0 : (defect[t] != 0 && !SheetWork::refuses(defect[t]))) ++stats.dropped_triangles;
    work.all_kept = kept.size() == triangle_count;
    const bool all_kept = work.all_kept;
    std::vector<uint32_t>& clean = work.clean;  // kept triangles by welded vertex (the welded copy itself when all are kept)
    if (all_kept) {
        clean = std::move(welded);
    } else {
        clean.reserve(kept.size() * 3);
        for (uint32_t t : kept) clean.insert(clean.end(), {welded[3 * t], welded[3 * t + 1], welded[3 * t + 2]});
    }
    if (!all_kept) work.dropped_table = build_edge_table(clean, work.welded_count);
}

/// Non-manifold edges and inconsistent winding.
void sheet_check_edges(SheetWork& work) {
    const Source& src = work.src;
    const SheetOptions& options = work.options;
    SheetStats& stats = work.stats;
    Issues& issues = work.issues;
    const WeldResult& weld = work.weld;
    const EdgeTable& full = work.full;
    const EdgeTable& clean_table = work.clean_table();
    const std::vector<uint32_t>& kept = work.kept;
    // ---- check: edges ------------------------------------------------------------------------------
    // Refusing, the file's own edges are judged; repairing, the edges left after the drops. A
    // non-manifold edge is never accepted either way.
    {
        // Only doubled faces dropped (a warning): the sheet left is what is judged, as repairing.
        bool refused_drop = false;
        for (uint8_t d : work.defect) refused_drop = refused_drop || SheetWork::refuses(d);
        const bool left = options.repair || !refused_drop;
        const EdgeTable& judged = left ? clean_table : full;
        const std::span<const uint32_t> to_source = left ? std::span<const uint32_t>(kept) : std::span<const uint32_t>();
        for (uint32_t e = 0; e < judged.edge_count(); ++e) {
            if (judged.face_count(e) < 3) continue;
            ++stats.non_manifold_edges;
            const uint32_t a = weld.first[judged.edges[e][0]], b = weld.first[judged.edges[e][1]];
            issues.push_back({"NON_MANIFOLD_EDGE", Severity::error,
                              src.file() + ": the edge from " + src.vertex_text(a) + " to " + src.vertex_text(b) +
                                  " is shared by " + std::to_string(judged.face_count(e)) + " triangles (" +
                                  triangles_text(src, judged.faces(e), to_source) +
                                  "); cloth allows two. Split the edge so each surface has its own vertices, or "
                                  "delete the extra faces.",
                              src.edge_pointer(a, b)});
        }
    }
    sheet_orient(work);
}

/// Inconsistent winding: an orientable piece is re-wound with a warning (its fewest triangles
/// reversed, as the modelling tool's "recalculate normals" would), a one-sided one refused by edge.
void sheet_orient(SheetWork& work) {
    const Source& src = work.src;
    SheetStats& stats = work.stats;
    Issues& issues = work.issues;
    const WeldResult& weld = work.weld;
    const EdgeTable& clean_table = work.clean_table();
    const std::vector<uint32_t>& kept = work.kept;
    std::vector<uint32_t>& clean = work.clean;
    const Orientation orientation = orient_triangles(clean, clean_table);
    std::vector<uint32_t> flipped;  // source triangles reversed
    for (uint32_t e : orientation.inconsistent) {
        ++stats.inconsistent_edges;
        auto f = clean_table.faces(e);
        if (orientation.island_orientable[orientation.island[f[0]]]) continue;
        const uint32_t t0 = kept[f[0]], t1 = kept[f[1]];
        const uint32_t a = weld.first[clean_table.edges[e][0]], b = weld.first[clean_table.edges[e][1]];
        issues.push_back({"INCONSISTENT_WINDING", Severity::error,
                          src.file() + ": " + src.triangle_text(t0) + " " + src.corners_text(t0) + " and " +
                              src.triangle_text(t1) + " " + src.corners_text(t1) +
                              " run the same way along their shared edge, " + src.vertex_text(a) + " to " +
                              src.vertex_text(b) +
                              ". The piece is one-sided (a Möbius strip): no winding is consistent. Cut it along an "
                              "edge so it has two sides.",
                          src.triangle_pointer(t1)});
    }
    if (orientation.inconsistent.empty()) return;
    for (uint32_t t = 0; t < kept.size(); ++t)
        if (orientation.flip[t] && orientation.island_orientable[orientation.island[t]]) {
            std::swap(clean[3 * t + 1], clean[3 * t + 2]);
            flipped.push_back(kept[t]);
        }
    if (flipped.empty()) return;
    issues.push_back({"WINDING_REORIENTED", Severity::warning,
                      src.file() + ": " + std::to_string(flipped.size()) + " triangle" + (flipped.size() == 1 ? "" : "s") +
                          " (" + triangles_text(src, flipped, {}) +
                          ") ran against their neighbours: reversed for the simulation, so each piece is wound one way "
                          "(the fewest reversed; the render mesh is drawn as modelled). 'Recalculate normals' in the "
                          "modelling tool fixes the file.",
                      src.triangle_pointer(flipped.front())});
}

}  // namespace weft::sheet_detail
