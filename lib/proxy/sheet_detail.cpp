#include "proxy/sheet_detail.h"

#include <algorithm>
#include <filesystem>
#include <sstream>

namespace weft::sheet_detail {

std::vector<char> garment_member(const SheetGarment& garment, int mesh, size_t vertex_count) {
    const auto it = std::find(garment.meshes.begin(), garment.meshes.end(), mesh);
    const size_t k = static_cast<size_t>(it - garment.meshes.begin());
    if (it == garment.meshes.end() || k >= garment.vertices.size() || garment.vertices[k].empty())
        return std::vector<char>(vertex_count, 1);
    std::vector<char> member(vertex_count, 0);
    for (uint32_t v : garment.vertices[k])
        if (v < vertex_count) member[v] = 1;
    return member;
}

std::string position_text(const Vec3& p) {
    std::ostringstream out;
    out.precision(6);
    out << "(" << p.x << ", " << p.y << ", " << p.z << ")";
    return out.str();
}

std::string metres_text(double metres) {
    std::ostringstream out;
    out.precision(3);
    out << metres << " m";
    return out.str();
}

uint32_t Source::part_of(uint32_t v) const {
    // first_vertex is ascending with the total last: the part is the last start at or below v.
    auto it = std::upper_bound(first_vertex.begin(), first_vertex.end() - 1, v);
    return static_cast<uint32_t>(it - first_vertex.begin()) - 1;
}

std::string Source::file() const {
    if (scene->source_path.empty()) return "(scene built in memory)";
    return std::filesystem::path(scene->source_path).filename().string();
}

std::string Source::vertex_text(uint32_t v) const {
    return "mesh '" + mesh(part_of(v)).name + "' vertex " + std::to_string(local_vertex(v)) + " at " +
           position_text(positions[v]);
}

std::string Source::triangle_text(uint32_t t) const {
    return "mesh '" + mesh(triangle_part[t]).name + "' triangle " + std::to_string(triangle_local[t]);
}

std::string Source::corners_text(uint32_t t) const {
    // Streamed: GCC 12 reports a false -Wrestrict on "(" + std::to_string(...).
    std::ostringstream out;
    out << "(" << local_vertex(indices[3 * t]) << ", " << local_vertex(indices[3 * t + 1]) << ", "
        << local_vertex(indices[3 * t + 2]) << ")";
    return out.str();
}

std::string Source::vertex_pointer(uint32_t v) const {
    return "/meshes/" + mesh(part_of(v)).name + "/vertices/" + std::to_string(local_vertex(v));
}

std::string Source::triangle_pointer(uint32_t t) const {
    return "/meshes/" + mesh(triangle_part[t]).name + "/triangles/" + std::to_string(triangle_local[t]);
}

std::string Source::edge_pointer(uint32_t a, uint32_t b) const {
    if (part_of(a) != part_of(b)) return vertex_pointer(a);  // welded across meshes: point at one end
    return "/meshes/" + mesh(part_of(a)).name + "/edges/" + std::to_string(local_vertex(a)) + "-" +
           std::to_string(local_vertex(b));
}

}  // namespace weft::sheet_detail
