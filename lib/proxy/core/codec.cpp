#include "proxy/core/codec.h"

#include <bit>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string_view>

#include "proxy/core/crc32c.h"

namespace weft {

namespace {

// --- the section catalogue (schemas/clothproxy-format.md#4-sections) ------------------------------

enum class ElementType : uint32_t {
    u8 = 1,     ///< UTF-8 bytes of one string
    u32 = 2,
    f64 = 3,    ///< IEEE 754 binary64
    u32x2 = 4,
    u32x3 = 5,
    u32x4 = 6,
    f64x3 = 7,
    str = 8,    ///< a list of strings, each a u32 byte length then its UTF-8 bytes; variable size
};

uint64_t element_size(ElementType t) {
    switch (t) {
        case ElementType::u8: return 1;
        case ElementType::u32: return 4;
        case ElementType::f64: return 8;
        case ElementType::u32x2: return 8;
        case ElementType::u32x3: return 12;
        case ElementType::u32x4: return 16;
        case ElementType::f64x3: return 24;
        case ElementType::str: return 4;  // the smallest element: an empty string's length
    }
    return 1;
}

const char* element_type_name(ElementType t) {
    switch (t) {
        case ElementType::u8: return "u8";
        case ElementType::u32: return "u32";
        case ElementType::f64: return "f64";
        case ElementType::u32x2: return "u32x2";
        case ElementType::u32x3: return "u32x3";
        case ElementType::u32x4: return "u32x4";
        case ElementType::f64x3: return "f64x3";
        case ElementType::str: return "str";
    }
    return "?";
}

constexpr uint32_t fourcc(const char (&s)[5]) {
    return uint32_t(uint8_t(s[0])) | uint32_t(uint8_t(s[1])) << 8 | uint32_t(uint8_t(s[2])) << 16 |
           uint32_t(uint8_t(s[3])) << 24;
}

enum Slot : size_t {
    kind_slot, garment_slot, class_slot, fabric_slot, source_file_slot, mesh_name_slot, mesh_material_slot,
    mesh_range_slot, options_slot, frame_node_slot, frame_matrix_slot, position_slot, inverse_mass_slot,
    source_slot, joint_name_slot, d_geo_slot, nearest_held_slot, collision_radius_slot, colour_ranges_slot, total_mass_slot,
    edges_slot, rest_length_slot, skips_slot, skip_rest_length_slot, hinges_slot, triangles_slot, bend_reference_slot,
    pin_holder_slot, pin_count_slot, pin_particles_slot, vertex_particle_slot, render_triangles_slot,
    binding_triangle_slot, binding_coordinates_slot, virtual_link_slot, virtual_position_slot, slot_count
};

struct SectionSpec {
    uint32_t tag;
    ElementType type;
    uint64_t fixed_count;  ///< the only legal element count, or 0 for any
    const char* field;     ///< the JSON key (proxy_to_json) of what it holds
};

// Every section of version 5, in the order the encoder writes them. All are required.
constexpr SectionSpec catalogue[slot_count] = {
    {fourcc("KIND"), ElementType::u32, 1, "kind"},
    {fourcc("GRMT"), ElementType::u8, 0, "garment"},
    {fourcc("CLAS"), ElementType::u8, 0, "class"},
    {fourcc("FABR"), ElementType::u8, 0, "suggested_fabric"},
    {fourcc("SRCF"), ElementType::u8, 0, "source_file"},
    {fourcc("SMNM"), ElementType::str, 0, "source_meshes"},
    {fourcc("SMMT"), ElementType::str, 0, "source_meshes"},
    {fourcc("SMVR"), ElementType::u32x2, 0, "source_meshes"},
    {fourcc("OPTS"), ElementType::u8, 0, "builder_options"},
    {fourcc("FRND"), ElementType::u8, 0, "frame"},
    {fourcc("FRMX"), ElementType::f64, 16, "frame"},
    {fourcc("RPOS"), ElementType::f64x3, 0, "rest_position"},
    {fourcc("IMAS"), ElementType::f64, 0, "inverse_mass"},
    {fourcc("PSRC"), ElementType::u32, 0, "source"},
    {fourcc("JNTN"), ElementType::str, 0, "joint_name"},
    {fourcc("DGEO"), ElementType::f64, 0, "d_geo"},
    {fourcc("NHLD"), ElementType::u32, 0, "nearest_held"},
    {fourcc("CRAD"), ElementType::f64, 0, "collision_radius"},
    {fourcc("COLR"), ElementType::u32, 0, "colour_ranges"},
    {fourcc("MASS"), ElementType::f64, 1, "total_mass"},
    {fourcc("EDGE"), ElementType::u32x2, 0, "edges"},
    {fourcc("ELEN"), ElementType::f64, 0, "rest_length"},
    {fourcc("SKIP"), ElementType::u32x2, 0, "skips"},
    {fourcc("SLEN"), ElementType::f64, 0, "skip_rest_length"},
    {fourcc("HNGE"), ElementType::u32x4, 0, "hinges"},
    {fourcc("TRIS"), ElementType::u32x3, 0, "triangles"},
    {fourcc("BREF"), ElementType::f64, 0, "hinge_reference_area"},
    {fourcc("PINH"), ElementType::str, 0, "pins"},
    {fourcc("PINC"), ElementType::u32, 0, "pins"},
    {fourcc("PINP"), ElementType::u32, 0, "pins"},
    {fourcc("VPRT"), ElementType::u32, 0, "vertex_particle"},
    {fourcc("RTRI"), ElementType::u32x3, 0, "render_triangles"},
    {fourcc("BTRI"), ElementType::u32, 0, "binding_triangle"},
    {fourcc("BCRD"), ElementType::f64x3, 0, "binding_coordinates"},
    {fourcc("VLNK"), ElementType::u32x3, 0, "virtual_link"},
    {fourcc("VPOS"), ElementType::f64x3, 0, "virtual_rest_position"},
};

// Which section a find_proxy_fault field points into, for the byte offset of the fault.
Slot slot_of_field(std::string_view field) {
    struct Entry {
        std::string_view field;
        Slot slot;
    };
    static constexpr Entry map[] = {
        {"kind", kind_slot},           {"garment", garment_slot},         {"class", class_slot},
        {"suggested_fabric", fabric_slot}, {"source_file", source_file_slot}, {"source_meshes", mesh_range_slot},
        {"builder_options", options_slot}, {"frame", frame_matrix_slot}, {"rest_position", position_slot},
        {"inverse_mass", inverse_mass_slot}, {"source", source_slot},    {"joint_name", joint_name_slot},
        {"d_geo", d_geo_slot},         {"nearest_held", nearest_held_slot}, {"collision_radius", collision_radius_slot},
        {"colour_ranges", colour_ranges_slot},
        {"total_mass", total_mass_slot}, {"edges", edges_slot},          {"rest_length", rest_length_slot},
        {"skips", skips_slot},         {"skip_rest_length", skip_rest_length_slot}, {"hinges", hinges_slot},
        {"triangles", triangles_slot}, {"hinge_reference_area", bend_reference_slot}, {"pins", pin_count_slot},         {"vertex_particle", vertex_particle_slot},
        {"render_triangles", render_triangles_slot}, {"binding_triangle", binding_triangle_slot},
        {"binding_coordinates", binding_coordinates_slot}, {"virtual_link", virtual_link_slot},
        {"virtual_rest_position", virtual_position_slot},
    };
    for (const Entry& e : map)
        if (e.field == field) return e.slot;
    return position_slot;
}

std::string tag_text(uint32_t tag) {
    std::string s;
    for (int k = 0; k < 4; ++k) {
        char c = static_cast<char>((tag >> (8 * k)) & 0xFF);
        if (c < 0x21 || c > 0x7E) {
            char hex[16];
            std::snprintf(hex, sizeof hex, "0x%08X", tag);
            return hex;
        }
        s += c;
    }
    return s;
}

constexpr uint64_t align8(uint64_t v) { return (v + 7) & ~uint64_t(7); }

// --- little-endian bytes, written and read explicitly so the host's byte order never matters -------

// Writes into a buffer sized once to the file's size (zero-filled, so padding needs no writes);
// byte-wise stores the compiler merges into plain word stores on a little-endian host.
class Writer {
public:
    explicit Writer(size_t size) : bytes_(size, 0) {}
    void u32(uint32_t v) {
        uint8_t* p = room(4);
        for (int k = 0; k < 4; ++k) p[k] = static_cast<uint8_t>(v >> (8 * k));
        pos_ += 4;
    }
    void u64(uint64_t v) {
        uint8_t* p = room(8);
        for (int k = 0; k < 8; ++k) p[k] = static_cast<uint8_t>(v >> (8 * k));
        pos_ += 8;
    }
    void f64(double v) { u64(std::bit_cast<uint64_t>(v)); }
    void raw(std::string_view s) {
        uint8_t* p = room(s.size());
        if (!s.empty()) std::memcpy(p, s.data(), s.size());
        pos_ += s.size();
    }
    void pad8() { pos_ = align8(pos_); }
    std::vector<uint8_t> take() {
        if (pos_ != bytes_.size()) throw std::logic_error("encode_proxy: layout and contents disagree");
        return std::move(bytes_);
    }

private:
    // The layout pass and the writing pass must agree to the byte; a disagreement is a bug here,
    // thrown rather than written past the buffer.
    uint8_t* room(size_t n) {
        if (n > bytes_.size() - pos_) throw std::logic_error("encode_proxy: contents overrun the layout");
        return bytes_.data() + pos_;
    }

    std::vector<uint8_t> bytes_;
    size_t pos_ = 0;
};

uint32_t get_u32(const uint8_t* p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
uint64_t get_u64(const uint8_t* p) { return uint64_t(get_u32(p)) | uint64_t(get_u32(p + 4)) << 32; }
double get_f64(const uint8_t* p) { return std::bit_cast<double>(get_u64(p)); }

// --- encoding --------------------------------------------------------------------------------------

uint32_t string_length(const std::string& s) {
    if (s.size() > UINT32_MAX) throw std::length_error("encode_proxy: a string longer than 4 GiB - 1");
    return static_cast<uint32_t>(s.size());
}

// Element count and byte size of each section of `proxy`, in catalogue order.
struct Layout {
    uint64_t count[slot_count]{};
    uint64_t size[slot_count]{};
};

uint64_t list_bytes(const std::vector<const std::string*>& list) {
    uint64_t b = 0;
    for (const std::string* s : list) b += 4 + string_length(*s);
    return b;
}

struct StringLists {
    std::vector<const std::string*> mesh_name, mesh_material, joint_name, pin_holder;
};

StringLists string_lists(const ClothProxy& proxy) {
    StringLists l;
    for (const SourceMesh& m : proxy.source_meshes) {
        l.mesh_name.push_back(&m.name);
        l.mesh_material.push_back(&m.material);
    }
    for (const std::string& j : proxy.joint_name) l.joint_name.push_back(&j);
    for (const Pin& p : proxy.pins) l.pin_holder.push_back(&p.holder);
    return l;
}

Layout layout_of(const ClothProxy& proxy, const StringLists& lists) {
    Layout l;
    uint64_t pin_particles = 0;
    for (const Pin& p : proxy.pins) pin_particles += p.particles.size();
    const uint64_t counts[slot_count] = {
        1, proxy.garment.size(), proxy.garment_class.size(), proxy.suggested_fabric.size(), proxy.source_file.size(),
        proxy.source_meshes.size(), proxy.source_meshes.size(), proxy.source_meshes.size(),
        proxy.builder_options.size(), proxy.frame.node.size(), 16, proxy.rest_position.size(),
        proxy.inverse_mass.size(), proxy.source.size(), proxy.joint_name.size(), proxy.d_geo.size(),
        proxy.nearest_held.size(), proxy.collision_radius.size(), proxy.colour_ranges.size(), 1, proxy.edges.size(), proxy.rest_length.size(),
        proxy.skips.size(), proxy.skip_rest_length.size(), proxy.hinges.size(), proxy.triangles.size(), proxy.hinge_reference_area.size(),
        proxy.pins.size(), proxy.pins.size(), pin_particles, proxy.vertex_particle.size(),
        proxy.render_triangles.size(), proxy.binding_triangle.size(), proxy.binding_coordinates.size(),
        proxy.virtual_link.size(), proxy.virtual_rest_position.size()};
    for (size_t s = 0; s < slot_count; ++s) {
        l.count[s] = counts[s];
        l.size[s] = counts[s] * element_size(catalogue[s].type);
    }
    l.size[mesh_name_slot] = list_bytes(lists.mesh_name);
    l.size[mesh_material_slot] = list_bytes(lists.mesh_material);
    l.size[joint_name_slot] = list_bytes(lists.joint_name);
    l.size[pin_holder_slot] = list_bytes(lists.pin_holder);
    return l;
}

void write_list(Writer& w, const std::vector<const std::string*>& list) {
    for (const std::string* s : list) {
        w.u32(string_length(*s));
        w.raw(*s);
    }
}

void write_vec3s(Writer& w, const std::vector<Vec3>& values) {
    for (const Vec3& v : values) {
        w.f64(v.x);
        w.f64(v.y);
        w.f64(v.z);
    }
}

/// Every number of `values` in order: doubles as f64, indices as u32, fixed-size tuples of either
/// element by element.
void write_all(Writer& w, const std::vector<double>& values) {
    for (double v : values) w.f64(v);
}
void write_all(Writer& w, const std::vector<uint32_t>& values) {
    for (uint32_t v : values) w.u32(v);
}
template <size_t N>
void write_all(Writer& w, const std::vector<std::array<uint32_t, N>>& values) {
    for (const auto& tuple : values)
        for (uint32_t v : tuple) w.u32(v);
}

void write_section(Writer& w, Slot slot, const ClothProxy& proxy, const StringLists& lists) {
    switch (slot) {
        case kind_slot: w.u32(static_cast<uint32_t>(proxy.kind)); break;
        case garment_slot: w.raw(proxy.garment); break;
        case class_slot: w.raw(proxy.garment_class); break;
        case fabric_slot: w.raw(proxy.suggested_fabric); break;
        case source_file_slot: w.raw(proxy.source_file); break;
        case mesh_name_slot: write_list(w, lists.mesh_name); break;
        case mesh_material_slot: write_list(w, lists.mesh_material); break;
        case mesh_range_slot:
            for (const SourceMesh& m : proxy.source_meshes) {
                w.u32(m.vertex_offset);
                w.u32(m.vertex_count);
            }
            break;
        case options_slot: w.raw(proxy.builder_options); break;
        case frame_node_slot: w.raw(proxy.frame.node); break;
        case frame_matrix_slot:
            for (double v : proxy.frame.rest_world.m) w.f64(v);
            break;
        case position_slot: write_vec3s(w, proxy.rest_position); break;
        case inverse_mass_slot: write_all(w, proxy.inverse_mass); break;
        case source_slot: write_all(w, proxy.source); break;
        case joint_name_slot: write_list(w, lists.joint_name); break;
        case d_geo_slot: write_all(w, proxy.d_geo); break;
        case nearest_held_slot: write_all(w, proxy.nearest_held); break;
        case collision_radius_slot: write_all(w, proxy.collision_radius); break;
        case colour_ranges_slot: write_all(w, proxy.colour_ranges); break;
        case total_mass_slot: w.f64(proxy.total_mass); break;
        case bend_reference_slot: write_all(w, proxy.hinge_reference_area); break;
        case edges_slot: write_all(w, proxy.edges); break;
        case rest_length_slot: write_all(w, proxy.rest_length); break;
        case skips_slot: write_all(w, proxy.skips); break;
        case skip_rest_length_slot: write_all(w, proxy.skip_rest_length); break;
        case hinges_slot: write_all(w, proxy.hinges); break;
        case triangles_slot: write_all(w, proxy.triangles); break;
        case pin_holder_slot: write_list(w, lists.pin_holder); break;
        case pin_count_slot:
            for (const Pin& p : proxy.pins) {
                if (p.particles.size() > UINT32_MAX) throw std::length_error("encode_proxy: a pin of 2^32 particles");
                w.u32(static_cast<uint32_t>(p.particles.size()));
            }
            break;
        case pin_particles_slot:
            for (const Pin& p : proxy.pins) write_all(w, p.particles);
            break;
        case vertex_particle_slot: write_all(w, proxy.vertex_particle); break;
        case render_triangles_slot: write_all(w, proxy.render_triangles); break;
        case binding_triangle_slot: write_all(w, proxy.binding_triangle); break;
        case binding_coordinates_slot: write_vec3s(w, proxy.binding_coordinates); break;
        case virtual_link_slot: write_all(w, proxy.virtual_link); break;
        case virtual_position_slot: write_vec3s(w, proxy.virtual_rest_position); break;
        case slot_count: break;
    }
}

// --- decoding --------------------------------------------------------------------------------------

DecodeResult fail(ProxyError code, uint64_t offset, std::string section, const std::string& message) {
    DecodeResult r;
    r.code = code;
    r.offset = offset;
    r.section = std::move(section);
    r.error = std::string(proxy_error_code(code)) + " at byte " + std::to_string(offset) + " (" + r.section +
              "): " + message;
    return r;
}

struct Located {
    uint64_t offset = 0;  ///< where the section's data starts in the file
    uint64_t count = 0;
    uint64_t size = 0;
    bool present = false;
};

class Decoder {
public:
    explicit Decoder(std::span<const uint8_t> bytes) : bytes_(bytes) {}

    DecodeResult run();

private:
    DecodeResult read_header(uint64_t& section_count);
    DecodeResult read_table(uint64_t section_count);
    DecodeResult read_sections(ClothProxy& proxy);
    DecodeResult read_string(Slot slot, std::string& out);
    DecodeResult read_list(Slot slot, std::vector<std::string>& out);
    std::string section_name(Slot slot) const {
        return tag_text(catalogue[slot].tag) + ", " + catalogue[slot].field;
    }
    const uint8_t* data(Slot slot) const { return bytes_.data() + sections_[slot].offset; }

    std::span<const uint8_t> bytes_;
    uint64_t file_size_ = 0;
    Located sections_[slot_count];
};

DecodeResult Decoder::read_header(uint64_t& section_count) {
    const uint64_t n = bytes_.size();
    // The magic first, as far as the bytes go: a short file of something else is BAD_MAGIC, a short
    // prefix of a proxy is TRUNCATED.
    for (size_t k = 0; k < proxy_magic.size() && k < n; ++k)
        if (bytes_[k] != proxy_magic[k])
            return fail(ProxyError::bad_magic, k, "header",
                        "not a .clothproxy: byte " + std::to_string(k) + " of the magic differs (expected 89 57 43 50 0D 0A 1A 0A)");
    if (n < proxy_header_size)
        return fail(ProxyError::truncated, n, "header",
                    n == 0 ? "the file is empty"
                           : "the header needs " + std::to_string(proxy_header_size) + " bytes, the file has " +
                                 std::to_string(n));
    const uint8_t* h = bytes_.data();
    uint32_t version = get_u32(h + 8);
    if (version == 1)
        return fail(ProxyError::unsupported_version, 8, "header",
                    "format version 1, written before the render mesh was bound to the particles; this reader "
                    "knows version " + std::to_string(proxy_format_version) +
                        " only. Build the proxy again with this weft (weft sheet, weft rig or weft bake)");
    if (version == 2)
        return fail(ProxyError::unsupported_version, 8, "header",
                    "format version 2, written before particles carried a collision radius; this reader "
                    "knows version " + std::to_string(proxy_format_version) +
                        " only. Build the proxy again with this weft (weft sheet, weft rig or weft bake)");
    if (version == 3)
        return fail(ProxyError::unsupported_version, 8, "header",
                    "format version 3, written before a sheet's hinges were scaled to its source mesh's hinge "
                    "area (a resampled sheet would bend unlike the one modelled); this reader knows version " +
                        std::to_string(proxy_format_version) +
                        " only. Build the proxy again with this weft (weft sheet, weft rig or weft bake)");
    if (version == 4)
        return fail(ProxyError::unsupported_version, 8, "header",
                    "format version 4, written before a rig's render vertices far off their links were collided "
                    "as virtual particles (its skin could swing into the body); this reader knows version " +
                        std::to_string(proxy_format_version) +
                        " only. Build the proxy again with this weft (weft sheet, weft rig or weft bake)");
    if (version != proxy_format_version)
        return fail(ProxyError::unsupported_version, 8, "header",
                    "format version " + std::to_string(version) + ", this reader knows version " +
                        std::to_string(proxy_format_version) + " only");
    file_size_ = get_u64(h + 16);
    if (file_size_ > n)
        return fail(ProxyError::truncated, n, "header",
                    "the header declares " + std::to_string(file_size_) + " bytes, the file has " + std::to_string(n));
    if (file_size_ < n)
        return fail(ProxyError::trailing_bytes, file_size_, "header",
                    std::to_string(n - file_size_) + " bytes after the " + std::to_string(file_size_) +
                        " the header declares");
    if (file_size_ % 8 != 0)
        return fail(ProxyError::bad_header, 16, "header",
                    "file size " + std::to_string(file_size_) + " is not a multiple of 8");
    uint32_t stored = get_u32(h + 12);
    uint32_t actual = proxy_checksum(bytes_);
    if (stored != actual) {
        char text[96];
        std::snprintf(text, sizeof text, "CRC-32C of bytes 16..%llu is 0x%08X, the header says 0x%08X",
                      static_cast<unsigned long long>(file_size_), actual, stored);
        return fail(ProxyError::checksum_mismatch, 12, "header", text);
    }
    if (uint32_t reserved = get_u32(h + 28); reserved != 0)
        return fail(ProxyError::bad_header, 28, "header",
                    "reserved field is " + std::to_string(reserved) + ", must be 0");
    section_count = get_u32(h + 24);
    if (section_count > (file_size_ - proxy_header_size) / proxy_section_entry_size)
        return fail(ProxyError::bad_section, 24, "section table",
                    std::to_string(section_count) + " sections need a " +
                        std::to_string(section_count * proxy_section_entry_size) + "-byte table, only " +
                        std::to_string(file_size_ - proxy_header_size) + " bytes follow the header");
    return {};
}

DecodeResult Decoder::read_table(uint64_t section_count) {
    const uint8_t* b = bytes_.data();
    uint64_t expected = proxy_header_size + section_count * proxy_section_entry_size;  // packed, in table order
    size_t next_slot = 0;  // the catalogue entry the table must name next
    for (uint64_t i = 0; i < section_count; ++i) {
        const uint64_t at = proxy_header_size + i * proxy_section_entry_size;
        const uint32_t tag = get_u32(b + at);
        const uint32_t type = get_u32(b + at + 4);
        const uint64_t count = get_u64(b + at + 8);
        const uint64_t offset = get_u64(b + at + 16);
        const uint64_t size = get_u64(b + at + 24);
        const std::string entry = "section table entry " + std::to_string(i) + " (" + tag_text(tag) + ")";

        size_t slot = 0;
        while (slot < slot_count && catalogue[slot].tag != tag) ++slot;
        // Unknown tags are refused, not skipped: a v1 reader cannot tell whether a section it does
        // not know changes what the known ones mean (a new row type the solver must honour).
        if (slot == slot_count)
            return fail(ProxyError::bad_section, at, "section table",
                        entry + ": unknown tag (a newer format version needs a newer reader)");
        // One canonical order (the catalogue's), so an accepted file is exactly what encode_proxy
        // writes for the proxy it decodes to: nothing in a file goes unread or can vary.
        if (slot < next_slot)
            return fail(ProxyError::duplicate_section, at, "section table",
                        entry + ": the tag appears twice in the table");
        if (slot > next_slot)
            return fail(ProxyError::missing_section, at, "section table",
                        entry + ": required section " + tag_text(catalogue[next_slot].tag) + " (" +
                            catalogue[next_slot].field + ") is missing before it");
        ++next_slot;
        const SectionSpec& spec = catalogue[slot];
        if (type != static_cast<uint32_t>(spec.type))
            return fail(ProxyError::bad_section, at + 4, "section table",
                        entry + ": element type " + std::to_string(type) + ", expected " +
                            std::to_string(static_cast<uint32_t>(spec.type)) + " (" + element_type_name(spec.type) + ")");
        if (offset != expected)
            return fail(ProxyError::bad_section, at + 16, "section table",
                        entry + ": data at byte " + std::to_string(offset) + ", expected " + std::to_string(expected) +
                            " (sections are packed in table order, each 8-byte aligned)");
        if (size > file_size_ - offset)
            return fail(ProxyError::bad_section, at + 24, "section table",
                        entry + ": " + std::to_string(size) + " bytes at byte " + std::to_string(offset) +
                            " run past the end of the " + std::to_string(file_size_) + "-byte file");
        const uint64_t esize = element_size(spec.type);
        // Every count is checked against the bytes it claims before anything is allocated.
        if (spec.type == ElementType::str ? count > size / esize : (count > size / esize || count * esize != size))
            return fail(ProxyError::bad_section, at + 8, "section table",
                        entry + ": " + std::to_string(count) + " elements of " + element_type_name(spec.type) +
                            " (" + std::to_string(esize) + (spec.type == ElementType::str ? "+" : "") +
                            " bytes each) do not fit its " + std::to_string(size) + " bytes");
        if (spec.fixed_count != 0 && count != spec.fixed_count)
            return fail(ProxyError::bad_section, at + 8, "section table",
                        entry + ": " + std::to_string(count) + " elements, must be exactly " +
                            std::to_string(spec.fixed_count));
        for (uint64_t p = offset + size; p < align8(offset + size); ++p)
            if (b[p] != 0)
                return fail(ProxyError::bad_section, p, tag_text(tag),
                            "padding byte " + std::to_string(p) + " after the section is not zero");
        sections_[slot] = {offset, count, size, true};
        expected = align8(offset + size);
    }
    if (expected < file_size_)
        return fail(ProxyError::trailing_bytes, expected, "section table",
                    std::to_string(file_size_ - expected) + " bytes after the last section");
    if (next_slot < slot_count)
        return fail(ProxyError::missing_section, 24, "section table",
                    "the table ends after " + std::to_string(section_count) + " sections; required section " +
                        tag_text(catalogue[next_slot].tag) + " (" + catalogue[next_slot].field + ") is missing");
    return {};
}

DecodeResult Decoder::read_string(Slot slot, std::string& out) {
    const Located& s = sections_[slot];
    out.assign(reinterpret_cast<const char*>(data(slot)), s.size);
    if (!is_clean_utf8(out))
        return fail(ProxyError::bad_string, s.offset, section_name(slot),
                    std::string(catalogue[slot].field) + " is not clean UTF-8 (malformed, or holds a NUL byte)");
    return {};
}

DecodeResult Decoder::read_list(Slot slot, std::vector<std::string>& out) {
    const Located& s = sections_[slot];
    const uint8_t* p = data(slot);
    uint64_t left = s.size;
    out.reserve(s.count);  // count <= size / 4, checked in read_table
    for (uint64_t k = 0; k < s.count; ++k) {
        const uint64_t at = s.offset + (s.size - left);
        if (left < 4)
            return fail(ProxyError::bad_string, at, section_name(slot),
                        "string " + std::to_string(k) + ": its length runs past the section end");
        uint32_t len = get_u32(p);
        p += 4;
        left -= 4;
        if (len > left)
            return fail(ProxyError::bad_string, at, section_name(slot),
                        "string " + std::to_string(k) + " claims " + std::to_string(len) + " bytes, " +
                            std::to_string(left) + " are left in the section");
        std::string text(reinterpret_cast<const char*>(p), len);
        if (!is_clean_utf8(text))
            return fail(ProxyError::bad_string, at, section_name(slot),
                        "string " + std::to_string(k) + " is not clean UTF-8 (malformed, or holds a NUL byte)");
        out.push_back(std::move(text));
        p += len;
        left -= len;
    }
    if (left != 0)
        return fail(ProxyError::bad_section, s.offset + (s.size - left), section_name(slot),
                    std::to_string(left) + " bytes left over after the last of " + std::to_string(s.count) + " strings");
    return {};
}

template <typename T, typename Read>
void read_array(std::vector<T>& out, const uint8_t* p, uint64_t count, uint64_t stride, Read read) {
    out.resize(count);
    for (uint64_t i = 0; i < count; ++i) out[i] = read(p + i * stride);
}

template <size_t N>
std::array<uint32_t, N> read_tuple(const uint8_t* p) {
    std::array<uint32_t, N> t;
    for (size_t k = 0; k < N; ++k) t[k] = get_u32(p + 4 * k);
    return t;
}

DecodeResult Decoder::read_sections(ClothProxy& proxy) {
    auto count = [&](Slot s) { return sections_[s].count; };
    proxy.kind = static_cast<ProxyKind>(get_u32(data(kind_slot)));
    const std::pair<Slot, std::string*> strings[] = {
        {garment_slot, &proxy.garment},         {class_slot, &proxy.garment_class},
        {fabric_slot, &proxy.suggested_fabric}, {source_file_slot, &proxy.source_file},
        {options_slot, &proxy.builder_options}, {frame_node_slot, &proxy.frame.node}};
    for (const auto& [slot, out] : strings)
        if (DecodeResult r = read_string(slot, *out); r.code != ProxyError::ok) return r;

    std::vector<std::string> mesh_names, mesh_materials, holders;
    if (DecodeResult r = read_list(mesh_name_slot, mesh_names); r.code != ProxyError::ok) return r;
    if (DecodeResult r = read_list(mesh_material_slot, mesh_materials); r.code != ProxyError::ok) return r;
    for (Slot s : {mesh_material_slot, mesh_range_slot})
        if (count(s) != count(mesh_name_slot))
            return fail(ProxyError::count_mismatch, sections_[s].offset, section_name(s),
                        std::to_string(count(s)) + " entries for " + std::to_string(count(mesh_name_slot)) +
                            " source meshes (SMNM)");
    proxy.source_meshes.resize(count(mesh_name_slot));
    for (uint64_t i = 0; i < count(mesh_name_slot); ++i) {
        SourceMesh& m = proxy.source_meshes[i];
        m.name = std::move(mesh_names[i]);
        m.material = std::move(mesh_materials[i]);
        m.vertex_offset = get_u32(data(mesh_range_slot) + 8 * i);
        m.vertex_count = get_u32(data(mesh_range_slot) + 8 * i + 4);
    }

    for (int k = 0; k < 16; ++k) proxy.frame.rest_world.m[k] = get_f64(data(frame_matrix_slot) + 8 * k);
    proxy.total_mass = get_f64(data(total_mass_slot));

    read_array(proxy.rest_position, data(position_slot), count(position_slot), 24, [](const uint8_t* p) {
        return Vec3{get_f64(p), get_f64(p + 8), get_f64(p + 16)};
    });
    read_array(proxy.inverse_mass, data(inverse_mass_slot), count(inverse_mass_slot), 8, get_f64);
    read_array(proxy.source, data(source_slot), count(source_slot), 4, get_u32);
    if (DecodeResult r = read_list(joint_name_slot, proxy.joint_name); r.code != ProxyError::ok) return r;
    read_array(proxy.d_geo, data(d_geo_slot), count(d_geo_slot), 8, get_f64);
    read_array(proxy.nearest_held, data(nearest_held_slot), count(nearest_held_slot), 4, get_u32);
    read_array(proxy.collision_radius, data(collision_radius_slot), count(collision_radius_slot), 8, get_f64);
    read_array(proxy.colour_ranges, data(colour_ranges_slot), count(colour_ranges_slot), 4, get_u32);
    read_array(proxy.edges, data(edges_slot), count(edges_slot), 8, read_tuple<2>);
    read_array(proxy.rest_length, data(rest_length_slot), count(rest_length_slot), 8, get_f64);
    read_array(proxy.skips, data(skips_slot), count(skips_slot), 8, read_tuple<2>);
    read_array(proxy.skip_rest_length, data(skip_rest_length_slot), count(skip_rest_length_slot), 8, get_f64);
    read_array(proxy.hinges, data(hinges_slot), count(hinges_slot), 16, read_tuple<4>);
    read_array(proxy.triangles, data(triangles_slot), count(triangles_slot), 12, read_tuple<3>);
    read_array(proxy.hinge_reference_area, data(bend_reference_slot), count(bend_reference_slot), 8, get_f64);
    read_array(proxy.vertex_particle, data(vertex_particle_slot), count(vertex_particle_slot), 4, get_u32);
    read_array(proxy.render_triangles, data(render_triangles_slot), count(render_triangles_slot), 12, read_tuple<3>);
    read_array(proxy.binding_triangle, data(binding_triangle_slot), count(binding_triangle_slot), 4, get_u32);
    read_array(proxy.binding_coordinates, data(binding_coordinates_slot), count(binding_coordinates_slot), 24,
               [](const uint8_t* p) { return Vec3{get_f64(p), get_f64(p + 8), get_f64(p + 16)}; });
    read_array(proxy.virtual_link, data(virtual_link_slot), count(virtual_link_slot), 12, read_tuple<3>);
    read_array(proxy.virtual_rest_position, data(virtual_position_slot), count(virtual_position_slot), 24,
               [](const uint8_t* p) { return Vec3{get_f64(p), get_f64(p + 8), get_f64(p + 16)}; });

    if (DecodeResult r = read_list(pin_holder_slot, holders); r.code != ProxyError::ok) return r;
    if (count(pin_count_slot) != count(pin_holder_slot))
        return fail(ProxyError::count_mismatch, sections_[pin_count_slot].offset, section_name(pin_count_slot),
                    std::to_string(count(pin_count_slot)) + " particle counts for " +
                        std::to_string(count(pin_holder_slot)) + " pin holders (PINH)");
    uint64_t total = 0;  // at most 2^30 counts of at most 2^32 - 1: no overflow
    for (uint64_t i = 0; i < count(pin_count_slot); ++i) total += get_u32(data(pin_count_slot) + 4 * i);
    if (total != count(pin_particles_slot))
        return fail(ProxyError::count_mismatch, sections_[pin_count_slot].offset, section_name(pin_count_slot),
                    "the pins' particle counts add up to " + std::to_string(total) + ", PINP holds " +
                        std::to_string(count(pin_particles_slot)) + " particles");
    proxy.pins.resize(count(pin_holder_slot));
    const uint8_t* next = data(pin_particles_slot);
    for (uint64_t i = 0; i < proxy.pins.size(); ++i) {
        Pin& pin = proxy.pins[i];
        pin.holder = std::move(holders[i]);
        uint32_t n = get_u32(data(pin_count_slot) + 4 * i);
        read_array(pin.particles, next, n, 4, get_u32);
        next += 4 * uint64_t(n);
    }
    return {};
}

DecodeResult Decoder::run() {
    uint64_t section_count = 0;
    if (DecodeResult r = read_header(section_count); r.code != ProxyError::ok) return r;
    if (DecodeResult r = read_table(section_count); r.code != ProxyError::ok) return r;
    ClothProxy proxy;
    if (DecodeResult r = read_sections(proxy); r.code != ProxyError::ok) return r;
    ProxyFault f = find_proxy_fault(proxy);
    if (!f.ok()) {
        Slot slot = slot_of_field(f.field);
        const Located& s = sections_[slot];
        const ElementType type = catalogue[slot].type;
        // Strings have no fixed stride: their faults point at the section's start.
        uint64_t offset = s.offset;
        if (type != ElementType::str && type != ElementType::u8 && f.element < s.count)
            offset += f.element * element_size(type);
        return fail(f.error, offset, section_name(slot), f.message);
    }
    DecodeResult ok;
    ok.proxy = std::move(proxy);
    return ok;
}

}  // namespace

uint32_t proxy_checksum(std::span<const uint8_t> file) {
    if (file.size() < 16) return 0;
    return crc32c(file.subspan(16));
}

std::vector<uint8_t> encode_proxy(const ClothProxy& proxy) {
    const StringLists lists = string_lists(proxy);
    const Layout layout = layout_of(proxy, lists);
    uint64_t total = proxy_header_size + slot_count * proxy_section_entry_size;
    uint64_t offsets[slot_count];
    for (size_t s = 0; s < slot_count; ++s) {
        offsets[s] = total;
        total = align8(total + layout.size[s]);
    }

    Writer w(total);
    w.raw(std::string_view(reinterpret_cast<const char*>(proxy_magic.data()), proxy_magic.size()));
    w.u32(proxy_format_version);
    w.u32(0);  // the checksum, patched in below once the payload is written
    w.u64(total);
    w.u32(static_cast<uint32_t>(slot_count));
    w.u32(0);  // reserved
    for (size_t s = 0; s < slot_count; ++s) {
        w.u32(catalogue[s].tag);
        w.u32(static_cast<uint32_t>(catalogue[s].type));
        w.u64(layout.count[s]);
        w.u64(offsets[s]);
        w.u64(layout.size[s]);
    }
    for (size_t s = 0; s < slot_count; ++s) {
        write_section(w, static_cast<Slot>(s), proxy, lists);
        w.pad8();
    }
    std::vector<uint8_t> bytes = w.take();
    uint32_t crc = proxy_checksum(bytes);
    for (int k = 0; k < 4; ++k) bytes[12 + k] = static_cast<uint8_t>(crc >> (8 * k));
    return bytes;
}

DecodeResult decode_proxy(std::span<const uint8_t> bytes) { return Decoder(bytes).run(); }

}  // namespace weft
