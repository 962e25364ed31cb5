#include "solver/sweep_blocks.h"

#include <algorithm>
#include <stdexcept>

#include "solver/message.h"

namespace weft::sweep_blocks {

namespace {

static_assert(sizeof(LinkRow) == 6 * sizeof(double), "the lanes read LinkRow as six doubles");
static_assert(sizeof(Vec3) == 3 * sizeof(double), "the lanes read positions as three doubles each");

/// The pairs of particles of one colour that a distance row or a hinge stencil joins.
std::vector<std::array<uint32_t, 2>> same_colour_pairs(const ClothProxy& p, const DistanceModel& distance) {
    std::vector<std::array<uint32_t, 2>> pairs;
    const size_t n = p.particle_count();
    std::vector<uint32_t> colour(n, 0);
    for (size_t c = 0; c + 1 < p.colour_ranges.size(); ++c)
        for (uint32_t i = p.colour_ranges[c]; i < p.colour_ranges[c + 1]; ++i) colour[i] = static_cast<uint32_t>(c);
    for (const auto& e : distance.ends)
        if (colour[e[0]] == colour[e[1]]) pairs.push_back(e);
    for (const auto& h : p.hinges)
        for (int a = 0; a < 4; ++a)
            for (int b = a + 1; b < 4; ++b)
                if (colour[h[a]] == colour[h[b]]) pairs.push_back({h[a], h[b]});
    return pairs;
}

}  // namespace

SweepBlocks build(const ClothProxy& p, const DistanceModel& distance) {
    SweepBlocks s;
    const uint32_t lanes = SweepBlocks::lanes;
    const size_t n = p.particle_count();
    if (n * 3 > static_cast<size_t>(INT32_MAX) || distance.count() * 6 > static_cast<size_t>(INT32_MAX))
        throw std::invalid_argument(solver_message("proxy '", p.garment, "': ", n, " particles and ", distance.count(),
                                                   " distance rows are too many for the solver's 32-bit indices"));
    s.same_colour_pairs = same_colour_pairs(p, distance);
    s.colour_blocks.push_back(0);
    for (size_t c = 0; c + 1 < p.colour_ranges.size(); ++c) {
        for (uint32_t b = p.colour_ranges[c]; b < p.colour_ranges[c + 1]; b += lanes) {
            const uint32_t width = std::min(lanes, p.colour_ranges[c + 1] - b);
            uint32_t rows = 0;
            for (uint32_t k = 0; k < width; ++k) rows = std::max(rows, distance.offsets[b + k + 1] - distance.offsets[b + k]);
            s.first.push_back(b);
            s.width.push_back(width);
            s.offsets.push_back(static_cast<uint32_t>(s.other_coordinate.size() / lanes));
            for (uint32_t q = 0; q < rows; ++q)
                for (uint32_t k = 0; k < lanes; ++k) {
                    // A lane past the block's width stands in for its first particle, padded throughout.
                    const uint32_t i = k < width ? b + k : b;
                    const uint32_t at = distance.offsets[i] + q;
                    const bool real = k < width && at < distance.offsets[i + 1];
                    const LinkIncidence inc = real ? distance.incidences[at] : LinkIncidence{i, 0};
                    s.other_coordinate.push_back(static_cast<int32_t>(inc.other * 3));
                    s.row_field.push_back(static_cast<int32_t>(inc.link * 6));
                }
        }
        s.colour_blocks.push_back(static_cast<uint32_t>(s.first.size()));
    }
    s.offsets.push_back(static_cast<uint32_t>(s.other_coordinate.size() / lanes));
    return s;
}

}  // namespace weft::sweep_blocks
