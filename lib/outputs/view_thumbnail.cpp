// The index's picture of a model (view_page.h): a front view rasterised here, shaded by each
// triangle's facing, the garments in their own colour and the proxies' links over them, written as
// a PNG (W3C, Portable Network Graphics, 2003) whose image data is stored uncompressed (zlib's
// "stored" blocks, RFC 1950/1951): no compression library, 37 kB a model.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>

#include "outputs/view_page.h"
#include "validate/scenario.h"

namespace weft {
namespace {

constexpr int kSide = 96;      ///< the picture, pixels a side
constexpr int kSample = 3;     ///< samples a pixel a side: edges come out smooth
constexpr int kRaster = kSide * kSample;

struct Rgb {
    double r = 0, g = 0, b = 0;
};

/// Samples in front-view space: colour, depth (larger is nearer), whether anything is there.
struct Raster {
    std::vector<Rgb> colour = std::vector<Rgb>(kRaster * kRaster);
    std::vector<double> depth = std::vector<double>(kRaster * kRaster, -std::numeric_limits<double>::infinity());
    std::vector<uint8_t> covered = std::vector<uint8_t>(kRaster * kRaster, 0);
};

/// Front view: x right, y up, the model's bounds fitted into the square with a margin.
struct View {
    double lo_x = 0, lo_y = 0, scale = 1, cx = 0, cy = 0;
    double px(double x) const { return cx + (x - lo_x) * scale; }
    double py(double y) const { return kRaster - (cy + (y - lo_y) * scale); }
};

View fit(const Bounds& b) {
    View v;
    const double w = b.max.x - b.min.x, h = b.max.y - b.min.y, span = std::max({w, h, 1e-9});
    const double inner = kRaster * 0.9;
    v.scale = inner / span;
    v.lo_x = b.min.x;
    v.lo_y = b.min.y;
    v.cx = (kRaster - w * v.scale) / 2;
    v.cy = (kRaster - h * v.scale) / 2;
    return v;
}

/// One triangle into the raster: every sample whose centre it covers and that it is nearest at.
void fill_triangle(Raster& r, const View& v, const Vec3& a, const Vec3& b, const Vec3& c, const Rgb& colour) {
    const double ax = v.px(a.x), ay = v.py(a.y), bx = v.px(b.x), by = v.py(b.y), qx = v.px(c.x), qy = v.py(c.y);
    const double area = (bx - ax) * (qy - ay) - (by - ay) * (qx - ax);
    if (!(std::fabs(area) > 1e-12)) return;
    const int x0 = std::max(0, static_cast<int>(std::floor(std::min({ax, bx, qx}))));
    const int x1 = std::min(kRaster - 1, static_cast<int>(std::ceil(std::max({ax, bx, qx}))));
    const int y0 = std::max(0, static_cast<int>(std::floor(std::min({ay, by, qy}))));
    const int y1 = std::min(kRaster - 1, static_cast<int>(std::ceil(std::max({ay, by, qy}))));
    for (int y = y0; y <= y1; ++y)
        for (int x = x0; x <= x1; ++x) {
            const double sx = x + 0.5, sy = y + 0.5;
            const double wa = ((bx - sx) * (qy - sy) - (by - sy) * (qx - sx)) / area;
            const double wb = ((qx - sx) * (ay - sy) - (qy - sy) * (ax - sx)) / area;
            const double wc = 1 - wa - wb;
            if (wa < 0 || wb < 0 || wc < 0) continue;
            const double z = wa * a.z + wb * b.z + wc * c.z;
            const size_t at = static_cast<size_t>(y) * kRaster + static_cast<size_t>(x);
            if (z <= r.depth[at]) continue;
            r.depth[at] = z;
            r.colour[at] = colour;
            r.covered[at] = 1;
        }
}

/// A link drawn over everything, a sample wide.
void draw_line(Raster& r, const View& v, const Vec3& a, const Vec3& b, const Rgb& colour) {
    const double ax = v.px(a.x), ay = v.py(a.y), bx = v.px(b.x), by = v.py(b.y);
    const int n = static_cast<int>(std::ceil(std::max(std::fabs(bx - ax), std::fabs(by - ay)))) + 1;
    if (!(n > 0) || n > 4 * kRaster) return;
    for (int i = 0; i <= n; ++i) {
        const double t = static_cast<double>(i) / n;
        const int x = static_cast<int>(ax + (bx - ax) * t), y = static_cast<int>(ay + (by - ay) * t);
        if (x < 0 || y < 0 || x >= kRaster || y >= kRaster) continue;
        const size_t at = static_cast<size_t>(y) * kRaster + static_cast<size_t>(x);
        r.colour[at] = colour;
        r.covered[at] = 1;
    }
}

/// Lit from the upper left front; both sides of a face shaded alike (a model's winding is not trusted).
Rgb shaded(const Vec3& a, const Vec3& b, const Vec3& c, const Rgb& base) {
    const Vec3 n = cross(b - a, c - a);
    const double len = length(n);
    const Vec3 light = normalize(Vec3{-0.35, 0.55, 0.75});
    const double facing = len > 0 ? std::fabs(dot(n, light)) / len : 0.5;
    const double k = 0.35 + 0.65 * facing;
    return {base.r * k, base.g * k, base.b * k};
}

uint32_t crc32(const uint8_t* data, size_t size, uint32_t crc = 0) {
    static const std::array<uint32_t, 256> table = [] {
        std::array<uint32_t, 256> t{};
        for (uint32_t n = 0; n < 256; ++n) {
            uint32_t c = n;
            for (int k = 0; k < 8; ++k) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            t[n] = c;
        }
        return t;
    }();
    crc = ~crc;
    for (size_t i = 0; i < size; ++i) crc = table[(crc ^ data[i]) & 0xFF] ^ (crc >> 8);
    return ~crc;
}

void put32(std::string& out, uint32_t v) {
    for (int s = 24; s >= 0; s -= 8) out += static_cast<char>((v >> s) & 0xFF);
}

void chunk(std::string& png, const char* type, const std::string& data) {
    put32(png, static_cast<uint32_t>(data.size()));
    const std::string typed = std::string(type, 4) + data;
    png += typed;
    put32(png, crc32(reinterpret_cast<const uint8_t*>(typed.data()), typed.size()));
}

/// RGBA rows (each after its filter byte 0) as a PNG, the zlib stream in stored blocks.
std::string png_of(const std::vector<uint8_t>& rgba) {
    std::string rows;
    for (int y = 0; y < kSide; ++y) {
        rows += '\0';
        rows.append(reinterpret_cast<const char*>(rgba.data()) + static_cast<size_t>(y) * kSide * 4, kSide * 4);
    }
    std::string z = "\x78\x01";  // deflate, 32 KiB window, no dictionary, check bits
    for (size_t at = 0; at < rows.size(); at += 65535) {
        const auto n = static_cast<uint16_t>(std::min<size_t>(65535, rows.size() - at));
        z += static_cast<char>(at + n == rows.size() ? 1 : 0);
        z += static_cast<char>(n & 0xFF);
        z += static_cast<char>(n >> 8);
        z += static_cast<char>(~n & 0xFF);
        z += static_cast<char>((~n >> 8) & 0xFF);
        z.append(rows, at, n);
    }
    uint32_t s1 = 1, s2 = 0;  // Adler-32
    for (unsigned char c : rows) {
        s1 = (s1 + c) % 65521;
        s2 = (s2 + s1) % 65521;
    }
    put32(z, s2 << 16 | s1);
    std::string png = "\x89PNG\r\n\x1a\n";
    std::string header;
    put32(header, kSide);
    put32(header, kSide);
    header += std::string("\x08\x06\x00\x00\x00", 5);  // 8 bits, RGBA, deflate, adaptive filter, no interlace
    chunk(png, "IHDR", header);
    chunk(png, "IDAT", z);
    chunk(png, "IEND", "");
    return png;
}

}  // namespace

std::string view_thumbnail_png(const ViewModel& model) {
    Bounds bounds;
    const Scene* scene = model.scene;
    if (scene)
        for (const Mesh& m : scene->meshes)
            if (m.triangle_count() > 0) bounds.add(Scene::mesh_bounds(m));
    std::vector<std::pair<Vec3, Vec3>> links;
    for (const ViewProxy& vp : model.proxies) {
        const Pose frame = rest_frame_pose(vp.proxy);
        const auto& x = vp.proxy.rest_position;
        const auto& rows = vp.proxy.edges.empty() ? vp.proxy.skips : vp.proxy.edges;
        for (const auto& [a, b] : rows)
            if (a < x.size() && b < x.size()) {
                links.push_back({frame.apply(x[a]), frame.apply(x[b])});
                bounds.add(links.back().first);
                bounds.add(links.back().second);
            }
    }
    if (bounds.empty() || !std::isfinite(bounds.diagonal())) return "";
    const View view = fit(bounds);
    Raster raster;
    const Rgb body{0.62, 0.66, 0.71}, garment{0.95, 0.55, 0.20}, link{0.12, 0.45, 0.90};
    if (scene) {
        for (size_t mi = 0; mi < scene->meshes.size(); ++mi) {
            const Mesh& m = scene->meshes[mi];
            std::vector<uint8_t> worn(m.vertex_count(), 0);
            if (model.garments)
                for (const Garment& g : model.garments->garments)
                    for (const GarmentPart& part : g.parts)
                        if (part.mesh == static_cast<int>(mi))
                            for (uint32_t v : part.vertices)
                                if (v < worn.size()) worn[v] = 1;
            for (size_t t = 0; t + 2 < m.indices.size(); t += 3) {
                const uint32_t i = m.indices[t], j = m.indices[t + 1], k = m.indices[t + 2];
                const Vec3 &a = m.positions[i], &b = m.positions[j], &c = m.positions[k];
                fill_triangle(raster, view, a, b, c, shaded(a, b, c, worn[i] && worn[j] && worn[k] ? garment : body));
            }
        }
    }
    for (const auto& [a, b] : links) draw_line(raster, view, a, b, link);
    // Each pixel the mean of its samples; coverage is its opacity, so the page's background shows round the model.
    std::vector<uint8_t> rgba(static_cast<size_t>(kSide) * kSide * 4, 0);
    for (int y = 0; y < kSide; ++y)
        for (int x = 0; x < kSide; ++x) {
            Rgb sum;
            int hit = 0;
            for (int sy = 0; sy < kSample; ++sy)
                for (int sx = 0; sx < kSample; ++sx) {
                    const size_t at = static_cast<size_t>(y * kSample + sy) * kRaster + static_cast<size_t>(x * kSample + sx);
                    if (!raster.covered[at]) continue;
                    ++hit;
                    sum.r += raster.colour[at].r;
                    sum.g += raster.colour[at].g;
                    sum.b += raster.colour[at].b;
                }
            uint8_t* px = &rgba[(static_cast<size_t>(y) * kSide + static_cast<size_t>(x)) * 4];
            if (!hit) continue;
            px[0] = static_cast<uint8_t>(std::lround(std::clamp(sum.r / hit, 0.0, 1.0) * 255));
            px[1] = static_cast<uint8_t>(std::lround(std::clamp(sum.g / hit, 0.0, 1.0) * 255));
            px[2] = static_cast<uint8_t>(std::lround(std::clamp(sum.b / hit, 0.0, 1.0) * 255));
            px[3] = static_cast<uint8_t>(hit * 255 / (kSample * kSample));
        }
    return png_of(rgba);
}

}  // namespace weft
