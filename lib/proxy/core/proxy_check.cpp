#include "proxy/core/proxy_check.h"

#include <cmath>
#include <span>
#include <sstream>

#include "graph/colouring.h"
#include "graph/csr.h"

namespace weft {

namespace {

ProxyFault fault(ProxyError error, std::string field, uint64_t element, std::string message) {
    return {error, std::move(field), element, std::move(message)};
}

std::string num(double v) {
    std::ostringstream s;
    s.precision(17);
    s << v;
    return s.str();
}

template <size_t N>
std::string tuple_text(const std::array<uint32_t, N>& row) {
    std::string s = "(";
    for (size_t k = 0; k < N; ++k) s += (k ? ", " : "") + std::to_string(row[k]);
    return s + ")";
}

ProxyFault check_strings(const ClothProxy& proxy) {
    struct Named {
        const char* field;
        const std::string* text;
    };
    const Named singles[] = {{"garment", &proxy.garment},
                             {"class", &proxy.garment_class},
                             {"suggested_fabric", &proxy.suggested_fabric},
                             {"source_file", &proxy.source_file},
                             {"builder_options", &proxy.builder_options},
                             {"frame", &proxy.frame.node}};
    for (const Named& n : singles)
        if (!is_clean_utf8(*n.text))
            return fault(ProxyError::bad_string, n.field, 0,
                         std::string(n.field) + " is not clean UTF-8 (malformed, or holds a NUL byte)");
    for (size_t i = 0; i < proxy.source_meshes.size(); ++i) {
        const SourceMesh& m = proxy.source_meshes[i];
        if (!is_clean_utf8(m.name) || !is_clean_utf8(m.material))
            return fault(ProxyError::bad_string, "source_meshes", i,
                         "source_meshes[" + std::to_string(i) + "]: name or material is not clean UTF-8");
    }
    for (size_t i = 0; i < proxy.joint_name.size(); ++i)
        if (!is_clean_utf8(proxy.joint_name[i]))
            return fault(ProxyError::bad_string, "joint_name", i,
                         "joint_name[" + std::to_string(i) + "] is not clean UTF-8");
    for (size_t i = 0; i < proxy.pins.size(); ++i)
        if (!is_clean_utf8(proxy.pins[i].holder))
            return fault(ProxyError::bad_string, "pins", i,
                         "pins[" + std::to_string(i) + "].holder is not clean UTF-8");
    return {};
}

ProxyFault check_lengths(const ClothProxy& proxy) {
    const size_t n = proxy.particle_count();
    if (n >= no_particle)
        return fault(ProxyError::bad_value, "rest_position", 0,
                     std::to_string(n) + " particles: indices are 32-bit, at most " +
                         std::to_string(no_particle - 1) + " particles");
    struct Sized {
        const char* field;
        size_t size;
        size_t expected;
        const char* of;
    };
    const Sized arrays[] = {
        {"inverse_mass", proxy.inverse_mass.size(), n, "particles"},
        {"source", proxy.source.size(), n, "particles"},
        {"d_geo", proxy.d_geo.size(), n, "particles"},
        {"nearest_held", proxy.nearest_held.size(), n, "particles"},
        {"rest_length", proxy.rest_length.size(), proxy.edges.size(), "edges"},
        {"skip_rest_length", proxy.skip_rest_length.size(), proxy.skips.size(), "skips"},
    };
    for (const Sized& a : arrays)
        if (a.size != a.expected)
            return fault(ProxyError::count_mismatch, a.field, 0,
                         std::string(a.field) + " has " + std::to_string(a.size) + " entries for " +
                             std::to_string(a.expected) + " " + a.of);
    if (!proxy.collision_radius.empty() && proxy.collision_radius.size() != n)
        return fault(ProxyError::count_mismatch, "collision_radius", 0,
                     "collision_radius has " + std::to_string(proxy.collision_radius.size()) + " entries for " +
                         std::to_string(n) + " particles (it is either empty or one per particle)");
    if (!proxy.hinge_reference_area.empty() && proxy.hinge_reference_area.size() != proxy.hinges.size())
        return fault(ProxyError::count_mismatch, "hinge_reference_area", 0,
                     "hinge_reference_area has " + std::to_string(proxy.hinge_reference_area.size()) + " entries for " +
                         std::to_string(proxy.hinges.size()) + " hinges (it is either empty or one per hinge)");
    if (!proxy.joint_name.empty() && proxy.joint_name.size() != n)
        return fault(ProxyError::count_mismatch, "joint_name", 0,
                     "joint_name has " + std::to_string(proxy.joint_name.size()) + " entries for " +
                         std::to_string(n) + " particles (it is either empty or one per particle)");
    return {};
}

// A row length or mass: finite and not negative. `what` names the array for the message.
ProxyFault check_non_negative(std::span<const double> values, const char* field) {
    for (size_t i = 0; i < values.size(); ++i) {
        double v = values[i];
        if (!std::isfinite(v))
            return fault(ProxyError::non_finite, field, i,
                         std::string(field) + "[" + std::to_string(i) + "] = " + num(v) + " is not finite");
        if (v < 0)
            return fault(ProxyError::bad_value, field, i,
                         std::string(field) + "[" + std::to_string(i) + "] = " + num(v) + " is negative");
    }
    return {};
}

ProxyFault check_numbers(const ClothProxy& proxy) {
    if (proxy.kind != ProxyKind::sheet && proxy.kind != ProxyKind::rig)
        return fault(ProxyError::bad_value, "kind", 0,
                     "kind " + std::to_string(static_cast<uint32_t>(proxy.kind)) + " is neither sheet (0) nor rig (1)");
    for (size_t k = 0; k < 16; ++k)
        if (!std::isfinite(proxy.frame.rest_world.m[k]))
            return fault(ProxyError::non_finite, "frame", k,
                         "frame.rest_world[" + std::to_string(k) + "] = " + num(proxy.frame.rest_world.m[k]) +
                             " is not finite");
    if (!std::isfinite(proxy.total_mass))
        return fault(ProxyError::non_finite, "total_mass", 0, "total_mass = " + num(proxy.total_mass) + " is not finite");
    if (proxy.total_mass < 0)
        return fault(ProxyError::bad_value, "total_mass", 0, "total_mass = " + num(proxy.total_mass) + " is negative");
    for (size_t b = 0; b < proxy.hinge_reference_area.size(); ++b) {
        const double a = proxy.hinge_reference_area[b];
        if (!std::isfinite(a))
            return fault(ProxyError::non_finite, "hinge_reference_area", b,
                         "hinge_reference_area[" + std::to_string(b) + "] = " + num(a) + " is not finite");
        if (!(a > 0))
            return fault(ProxyError::bad_value, "hinge_reference_area", b,
                         "hinge_reference_area[" + std::to_string(b) + "] = " + num(a) + " is not positive");
    }
    for (size_t i = 0; i < proxy.rest_position.size(); ++i)
        if (!is_finite(proxy.rest_position[i])) {
            const Vec3& p = proxy.rest_position[i];
            return fault(ProxyError::non_finite, "rest_position", i,
                         "rest_position[" + std::to_string(i) + "] = (" + num(p.x) + ", " + num(p.y) + ", " +
                             num(p.z) + ") is not finite");
        }
    if (ProxyFault f = check_non_negative(proxy.inverse_mass, "inverse_mass"); !f.ok()) return f;
    if (ProxyFault f = check_non_negative(proxy.rest_length, "rest_length"); !f.ok()) return f;
    if (ProxyFault f = check_non_negative(proxy.skip_rest_length, "skip_rest_length"); !f.ok()) return f;
    if (ProxyFault f = check_non_negative(proxy.collision_radius, "collision_radius"); !f.ok()) return f;
    for (size_t i = 0; i < proxy.d_geo.size(); ++i) {
        double d = proxy.d_geo[i];
        // +inf is d_geo's sentinel for "no hold reaches" (docs/proxy.md#geodesic-distance); NaN and -inf are not.
        if (std::isnan(d) || d == -INFINITY)
            return fault(ProxyError::non_finite, "d_geo", i,
                         "d_geo[" + std::to_string(i) + "] = " + num(d) + " (only +inf is allowed, for no hold)");
        if (d < 0)
            return fault(ProxyError::bad_value, "d_geo", i, "d_geo[" + std::to_string(i) + "] = " + num(d) + " is negative");
    }
    return {};
}

// Every index of every row below n, and no row naming one particle twice.
template <size_t N>
ProxyFault check_rows(std::span<const std::array<uint32_t, N>> rows, const char* field, size_t n) {
    for (size_t r = 0; r < rows.size(); ++r) {
        const auto& row = rows[r];
        for (size_t k = 0; k < N; ++k) {
            if (row[k] >= n)
                return fault(ProxyError::index_out_of_range, field, r,
                             std::string(field) + "[" + std::to_string(r) + "] = " + tuple_text(row) +
                                 ": particle " + std::to_string(row[k]) + " out of range (" + std::to_string(n) +
                                 " particles)");
            for (size_t j = 0; j < k; ++j)
                if (row[j] == row[k])
                    return fault(ProxyError::bad_value, field, r,
                                 std::string(field) + "[" + std::to_string(r) + "] = " + tuple_text(row) +
                                     " names particle " + std::to_string(row[k]) + " twice");
        }
    }
    return {};
}

ProxyFault check_indices(const ClothProxy& proxy) {
    const size_t n = proxy.particle_count();
    for (size_t i = 0; i < n; ++i)
        if (proxy.nearest_held[i] != no_particle && proxy.nearest_held[i] >= n)
            return fault(ProxyError::index_out_of_range, "nearest_held", i,
                         "nearest_held[" + std::to_string(i) + "] = " + std::to_string(proxy.nearest_held[i]) +
                             " out of range (" + std::to_string(n) + " particles)");
    if (ProxyFault f = check_rows<2>(proxy.edges, "edges", n); !f.ok()) return f;
    if (ProxyFault f = check_rows<2>(proxy.skips, "skips", n); !f.ok()) return f;
    if (ProxyFault f = check_rows<4>(proxy.hinges, "hinges", n); !f.ok()) return f;
    if (ProxyFault f = check_rows<3>(proxy.triangles, "triangles", n); !f.ok()) return f;
    for (size_t i = 0; i < proxy.pins.size(); ++i)
        for (uint32_t p : proxy.pins[i].particles)
            if (p >= n)
                return fault(ProxyError::index_out_of_range, "pins", i,
                             "pins[" + std::to_string(i) + "] (holder \"" + proxy.pins[i].holder + "\"): particle " +
                                 std::to_string(p) + " out of range (" + std::to_string(n) + " particles)");
    for (size_t v = 0; v < proxy.vertex_particle.size(); ++v)
        if (proxy.vertex_particle[v] != no_particle && proxy.vertex_particle[v] >= n)
            return fault(ProxyError::index_out_of_range, "vertex_particle", v,
                         "vertex_particle[" + std::to_string(v) + "] = " + std::to_string(proxy.vertex_particle[v]) +
                             " out of range (" + std::to_string(n) + " particles)");
    return {};
}

// Numbers against the proxy's own size (docs/bad-inputs.md#numbers-from-a-file): finite and not
// negative is not enough; a rest length of 1e30 on a 1 m cloth, a particle of 1e300 kg or one of
// 1e-300 kg would step to nonsense. A row's rest length is at most twice the rest shape's extent (a
// builder's is the distance it spans there), a collision radius at most the extent, a free particle's
// mass at most the proxy's total and at least a billionth of it.
ProxyFault check_sizes(const ClothProxy& proxy) {
    Vec3 low{INFINITY, INFINITY, INFINITY}, high{-INFINITY, -INFINITY, -INFINITY};
    for (const Vec3& p : proxy.rest_position) low = min(low, p), high = max(high, p);
    const double extent = proxy.rest_position.empty() ? 0 : length(high - low);
    const auto past = [&](std::span<const double> values, const char* field, double bound, const char* what) -> ProxyFault {
        for (size_t i = 0; i < values.size(); ++i)
            if (values[i] > bound)
                return fault(ProxyError::bad_value, field, i,
                             std::string(field) + "[" + std::to_string(i) + "] = " + num(values[i]) + " is more than " + what +
                                 " (" + num(bound) + " m; the rest shape is " + num(extent) + " m across)");
        return {};
    };
    if (ProxyFault f = past(proxy.rest_length, "rest_length", 2 * extent, "twice the proxy's size"); !f.ok()) return f;
    if (ProxyFault f = past(proxy.skip_rest_length, "skip_rest_length", 2 * extent, "twice the proxy's size"); !f.ok()) return f;
    if (ProxyFault f = past(proxy.collision_radius, "collision_radius", extent, "the proxy's size"); !f.ok()) return f;
    if (!(proxy.total_mass > 0)) return {};
    for (size_t p = 0; p < proxy.inverse_mass.size(); ++p) {
        const double w = proxy.inverse_mass[p];
        if (w == 0) continue;  // held
        const double mass = 1 / w;
        if (mass > proxy.total_mass * (1 + 1e-9) || mass < proxy.total_mass * 1e-9)
            return fault(ProxyError::bad_value, "inverse_mass", p,
                         "inverse_mass[" + std::to_string(p) + "] = " + num(w) + " makes a particle of " + num(mass) +
                             " kg in a proxy of " + num(proxy.total_mass) + " kg (a particle is at most the whole and at least a "
                             "billionth of it)");
    }
    return {};
}

ProxyFault check_colour_ranges(const ClothProxy& proxy) {
    const auto& ranges = proxy.colour_ranges;
    const size_t n = proxy.particle_count();
    if (ranges.empty()) {
        if (n == 0) return {};
        return fault(ProxyError::bad_colour_ranges, "colour_ranges", 0,
                     "colour_ranges is empty but there are " + std::to_string(n) + " particles");
    }
    if (ranges.front() != 0)
        return fault(ProxyError::bad_colour_ranges, "colour_ranges", 0,
                     "colour_ranges[0] = " + std::to_string(ranges.front()) + ": the first colour must start at particle 0");
    for (size_t c = 1; c < ranges.size(); ++c)
        if (ranges[c] < ranges[c - 1])
            return fault(ProxyError::bad_colour_ranges, "colour_ranges", c,
                         "colour_ranges[" + std::to_string(c) + "] = " + std::to_string(ranges[c]) + " is below colour_ranges[" +
                             std::to_string(c - 1) + "] = " + std::to_string(ranges[c - 1]) + ": colours overlap");
    if (ranges.back() != n)
        return fault(ProxyError::bad_colour_ranges, "colour_ranges", ranges.size() - 1,
                     "colour_ranges ends at " + std::to_string(ranges.back()) + " but there are " + std::to_string(n) +
                         " particles: the colours must cover every particle exactly once");
    return {};
}

ProxyFault check_pins(const ClothProxy& proxy) {
    for (size_t i = 0; i < proxy.pins.size(); ++i) {
        const Pin& pin = proxy.pins[i];
        for (size_t k = 0; k < pin.particles.size(); ++k) {
            uint32_t p = pin.particles[k];
            if (k > 0 && p <= pin.particles[k - 1])
                return fault(ProxyError::bad_pin, "pins", i,
                             "pins[" + std::to_string(i) + "] (holder \"" + pin.holder + "\"): particle " + std::to_string(p) +
                                 " after " + std::to_string(pin.particles[k - 1]) + ": particles must be strictly ascending");
            if (!proxy.held(p))
                return fault(ProxyError::bad_pin, "pins", i,
                             "pins[" + std::to_string(i) + "] (holder \"" + pin.holder + "\"): particle " + std::to_string(p) +
                                 " has inverse_mass " + num(proxy.inverse_mass[p]) + ", so it is not held");
        }
    }
    return {};
}

ProxyFault check_geodesic(const ClothProxy& proxy) {
    for (size_t i = 0; i < proxy.particle_count(); ++i) {
        uint32_t h = proxy.nearest_held[i];
        bool unreached = proxy.d_geo[i] == INFINITY;
        if (unreached != (h == no_particle))
            return fault(ProxyError::bad_value, "nearest_held", i,
                         "particle " + std::to_string(i) + ": d_geo = " + num(proxy.d_geo[i]) +
                             (h == no_particle ? " but it has no nearest held particle"
                                               : " but nearest_held = " + std::to_string(h) +
                                                     " (d_geo is +inf exactly where no hold reaches)"));
        if (h != no_particle && !proxy.held(h))
            return fault(ProxyError::bad_value, "nearest_held", i,
                         "nearest_held[" + std::to_string(i) + "] = " + std::to_string(h) + " has inverse_mass " +
                             num(proxy.inverse_mass[h]) + ", so it is not held");
    }
    return {};
}

ProxyFault check_write_back(const ClothProxy& proxy) {
    uint64_t covered = 0;
    for (size_t i = 0; i < proxy.source_meshes.size(); ++i) {
        const SourceMesh& m = proxy.source_meshes[i];
        if (m.vertex_offset != covered)
            return fault(ProxyError::bad_value, "source_meshes", i,
                         "source_meshes[" + std::to_string(i) + "] (\"" + m.name + "\") starts at vertex " +
                             std::to_string(m.vertex_offset) + ", expected " + std::to_string(covered) +
                             " (the meshes are concatenated in order)");
        covered += m.vertex_count;
    }
    if (covered != proxy.vertex_particle.size())
        return fault(ProxyError::count_mismatch, "vertex_particle", 0,
                     "vertex_particle has " + std::to_string(proxy.vertex_particle.size()) +
                         " entries but source_meshes cover " + std::to_string(covered) + " vertices");
    if (proxy.kind != ProxyKind::sheet || proxy.vertex_particle.empty()) return {};
    const size_t vertices = proxy.vertex_particle.size();
    for (size_t p = 0; p < proxy.particle_count(); ++p) {
        uint32_t s = proxy.source[p];
        if (s == no_source) continue;
        if (s >= vertices)
            return fault(ProxyError::index_out_of_range, "source", p,
                         "source[" + std::to_string(p) + "] = " + std::to_string(s) + " out of range (" +
                             std::to_string(vertices) + " source vertices)");
        if (proxy.vertex_particle[s] != p)
            return fault(ProxyError::bad_value, "source", p,
                         "source[" + std::to_string(p) + "] = vertex " + std::to_string(s) + ", but vertex_particle[" +
                             std::to_string(s) + "] = " + std::to_string(proxy.vertex_particle[s]) +
                             ": a particle's source vertex must be welded into it");
    }
    return {};
}

// docs/proxy.md#binding: a binding per source vertex (or none at all, a rig), each on a proxy
// triangle with finite coordinates; render triangles name source vertices.
ProxyFault check_binding(const ClothProxy& proxy) {
    const size_t vertices = proxy.vertex_particle.size();
    const bool bound = !proxy.binding_triangle.empty() || !proxy.binding_coordinates.empty();
    if (bound && proxy.binding_triangle.size() != vertices)
        return fault(ProxyError::count_mismatch, "binding_triangle", 0,
                     "binding_triangle has " + std::to_string(proxy.binding_triangle.size()) + " entries for " +
                         std::to_string(vertices) + " source vertices (vertex_particle)");
    if (proxy.binding_coordinates.size() != proxy.binding_triangle.size())
        return fault(ProxyError::count_mismatch, "binding_coordinates", 0,
                     "binding_coordinates has " + std::to_string(proxy.binding_coordinates.size()) + " entries for " +
                         std::to_string(proxy.binding_triangle.size()) + " bindings (binding_triangle)");
    for (size_t v = 0; v < proxy.binding_triangle.size(); ++v) {
        const uint32_t t = proxy.binding_triangle[v];
        if (t != no_triangle && t >= proxy.triangles.size())
            return fault(ProxyError::index_out_of_range, "binding_triangle", v,
                         "binding_triangle[" + std::to_string(v) + "] = " + std::to_string(t) + " out of range (" +
                             std::to_string(proxy.triangles.size()) + " triangles)");
        const Vec3& k = proxy.binding_coordinates[v];
        if (!is_finite(k))
            return fault(ProxyError::non_finite, "binding_coordinates", v,
                         "binding_coordinates[" + std::to_string(v) + "] is not finite");
    }
    for (size_t t = 0; t < proxy.render_triangles.size(); ++t)
        for (uint32_t v : proxy.render_triangles[t])
            if (v >= vertices)
                return fault(ProxyError::index_out_of_range, "render_triangles", t,
                             "render_triangles[" + std::to_string(t) + "] names vertex " + std::to_string(v) + " of " +
                                 std::to_string(vertices) + " source vertices");
    return {};
}

// docs/colliders.md#virtual-particles: each virtual particle rides a particle and takes the turn of a
// link of two distinct particles of some length, from a finite rest position.
ProxyFault check_virtual(const ClothProxy& proxy) {
    const size_t n = proxy.particle_count();
    if (proxy.virtual_rest_position.size() != proxy.virtual_link.size())
        return fault(ProxyError::count_mismatch, "virtual_rest_position", 0,
                     "virtual_rest_position has " + std::to_string(proxy.virtual_rest_position.size()) + " entries for " +
                         std::to_string(proxy.virtual_link.size()) + " virtual particles (virtual_link)");
    for (size_t v = 0; v < proxy.virtual_link.size(); ++v) {
        const auto& l = proxy.virtual_link[v];
        const std::string what = "virtual_link[" + std::to_string(v) + "] = " + tuple_text(l);
        for (uint32_t p : l)
            if (p >= n)
                return fault(ProxyError::index_out_of_range, "virtual_link", v,
                             what + ": particle " + std::to_string(p) + " out of range (" + std::to_string(n) + " particles)");
        if (l[1] == l[2] || !(distance(proxy.rest_position[l[1]], proxy.rest_position[l[2]]) > 0))
            return fault(ProxyError::bad_value, "virtual_link", v, what + ": its link has no length at rest");
        if (!is_finite(proxy.virtual_rest_position[v]))
            return fault(ProxyError::non_finite, "virtual_rest_position", v,
                         "virtual_rest_position[" + std::to_string(v) + "] is not finite");
    }
    return {};
}


// docs/proxy.md#colouring: no row may couple two free particles of one colour. The coupling graph is every
// pair a row touches (edges, skips, the six pairs of a hinge's stencil, a triangle's three), checked
// with the same validator the builder uses; held particles never block a colour (colour_greedy).
ProxyFault check_colouring(const ClothProxy& proxy) {
    const uint32_t n = static_cast<uint32_t>(proxy.particle_count());
    if (n == 0) return {};
    std::vector<uint32_t> colour(n);
    for (uint32_t c = 0; c + 1 < proxy.colour_ranges.size(); ++c)
        for (uint32_t p = proxy.colour_ranges[c]; p < proxy.colour_ranges[c + 1]; ++p) colour[p] = c;
    std::vector<uint8_t> fixed(n);
    for (uint32_t p = 0; p < n; ++p) fixed[p] = proxy.held(p) ? 1 : 0;

    CsrGraph graph = build_csr(n, coupled_pairs(proxy));
    uint32_t colour_count = static_cast<uint32_t>(proxy.colour_count());
    int64_t bad = validate_colouring(graph, colour, colour_count, fixed);
    if (bad < 0) return {};
    uint32_t v = static_cast<uint32_t>(bad);
    for (uint32_t u : graph.neighbours(v))
        if (!fixed[u] && colour[u] == colour[v])
            return fault(ProxyError::bad_colouring, "colour_ranges", colour[v],
                         "particles " + std::to_string(std::min(u, v)) + " and " + std::to_string(std::max(u, v)) +
                             " share colour " + std::to_string(colour[v]) +
                             " but a row couples them (both free): the colouring is invalid");
    return fault(ProxyError::bad_colouring, "colour_ranges", 0,
                 "particle " + std::to_string(v) + " fails the colouring check");
}

}  // namespace

const char* proxy_error_code(ProxyError error) {
    switch (error) {
        case ProxyError::ok: return "OK";
        case ProxyError::unreadable: return "UNREADABLE";
        case ProxyError::bad_magic: return "BAD_MAGIC";
        case ProxyError::unsupported_version: return "UNSUPPORTED_VERSION";
        case ProxyError::bad_header: return "BAD_HEADER";
        case ProxyError::truncated: return "TRUNCATED";
        case ProxyError::trailing_bytes: return "TRAILING_BYTES";
        case ProxyError::checksum_mismatch: return "CHECKSUM_MISMATCH";
        case ProxyError::bad_section: return "BAD_SECTION";
        case ProxyError::duplicate_section: return "DUPLICATE_SECTION";
        case ProxyError::missing_section: return "MISSING_SECTION";
        case ProxyError::bad_string: return "BAD_STRING";
        case ProxyError::count_mismatch: return "COUNT_MISMATCH";
        case ProxyError::index_out_of_range: return "INDEX_OUT_OF_RANGE";
        case ProxyError::non_finite: return "NON_FINITE";
        case ProxyError::bad_value: return "BAD_VALUE";
        case ProxyError::bad_colour_ranges: return "BAD_COLOUR_RANGES";
        case ProxyError::bad_colouring: return "BAD_COLOURING";
        case ProxyError::bad_pin: return "BAD_PIN";
    }
    return "UNKNOWN";
}

bool is_clean_utf8(std::string_view text) {
    const auto* s = reinterpret_cast<const unsigned char*>(text.data());
    const size_t n = text.size();
    size_t i = 0;
    while (i < n) {
        unsigned char c = s[i];
        if (c == 0) return false;
        if (c < 0x80) {
            ++i;
            continue;
        }
        // Unicode 15 table 3-7: the second byte's range depends on the first, which excludes
        // overlong forms, UTF-16 surrogates and code points past U+10FFFF.
        size_t len;
        unsigned char lo = 0x80, hi = 0xBF;
        if (c >= 0xC2 && c <= 0xDF) len = 2;
        else if (c == 0xE0) len = 3, lo = 0xA0;
        else if (c == 0xED) len = 3, hi = 0x9F;
        else if (c >= 0xE1 && c <= 0xEF) len = 3;
        else if (c == 0xF0) len = 4, lo = 0x90;
        else if (c >= 0xF1 && c <= 0xF3) len = 4;
        else if (c == 0xF4) len = 4, hi = 0x8F;
        else return false;
        if (n - i < len) return false;
        if (s[i + 1] < lo || s[i + 1] > hi) return false;
        for (size_t k = 2; k < len; ++k)
            if (s[i + k] < 0x80 || s[i + k] > 0xBF) return false;
        i += len;
    }
    return true;
}

ProxyFault find_proxy_fault(const ClothProxy& proxy) {
    // Order matters: each step may index arrays the earlier steps proved long enough.
    using Step = ProxyFault (*)(const ClothProxy&);
    const Step steps[] = {check_strings,       check_lengths, check_numbers,  check_indices,    check_sizes,
                          check_colour_ranges, check_pins,    check_geodesic, check_write_back,
                          check_binding,       check_virtual, check_colouring};
    for (Step step : steps)
        if (ProxyFault f = step(proxy); !f.ok()) return f;
    return {};
}

std::vector<std::array<uint32_t, 2>> coupled_pairs(const ClothProxy& proxy) {
    std::vector<std::array<uint32_t, 2>> pairs;
    pairs.reserve(proxy.edges.size() + proxy.skips.size() + 6 * proxy.hinges.size() + 3 * proxy.triangles.size());
    pairs.insert(pairs.end(), proxy.edges.begin(), proxy.edges.end());
    pairs.insert(pairs.end(), proxy.skips.begin(), proxy.skips.end());
    for (const auto& h : proxy.hinges)
        for (int a = 0; a < 4; ++a)
            for (int b = a + 1; b < 4; ++b) pairs.push_back({h[a], h[b]});
    for (const auto& t : proxy.triangles) {
        pairs.push_back({t[0], t[1]});
        pairs.push_back({t[1], t[2]});
        pairs.push_back({t[2], t[0]});
    }
    return pairs;
}

std::string check_proxy(const ClothProxy& proxy) {
    ProxyFault f = find_proxy_fault(proxy);
    if (f.ok()) return {};
    return std::string(proxy_error_code(f.error)) + ": " + f.message;
}

}  // namespace weft
