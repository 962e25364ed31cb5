// A skinned mesh's moving terms filed by joint (docs/validation.md#the-skinned-mesh-of-a-rig-proxy):
// linear blend skinning sums, per vertex, weight · M(joint) · bind over its influences. Taken vertex by
// vertex, each term loads its joint's matrix again; taken joint by joint, one matrix serves every
// influence it has, over bind positions laid out side by side, which the compiler vectorises. Each
// term is the same arithmetic in the same order (the matrix's rows as Mat4::transform_point sums
// them, then the weight), so the vertex's sum of them, taken in its own order, is the same to the bit.
#pragma once
#include <cstdint>
#include <vector>

#include "geom/vec.h"

namespace weft {

/// One mesh part's moving influences, by joint. Built once (add, then build); apply every frame.
class JointTerms {
public:
    /// Influence `slot` (the vertex's order of them, MeshPart's moved_* arrays) of a vertex bound at
    /// `bind`: `weight` on posed joint `joint`. Slots are added in ascending order from 0.
    void add(uint32_t joint, double weight, const Vec3& bind);
    /// Files the added influences under their joints (`joints` posed joints in all).
    void build(size_t joints);

    /// Every influence's term, weight · skinning[joint] · bind, into the scratch `term_` (by entry).
    void apply(const std::vector<Mat4>& skinning);
    /// Influence `slot`'s term after apply().
    Vec3 term(uint32_t slot) const {
        const uint32_t e = entry_[slot];
        return {tx_[e], ty_[e], tz_[e]};
    }

private:
    std::vector<uint32_t> joint_;                  ///< per slot, while adding
    std::vector<double> weight_;                   ///< per entry (by joint), after build; per slot before
    std::vector<double> x_, y_, z_;                ///< per entry: the bind position (per slot before build)
    std::vector<uint32_t> first_;                  ///< per joint + 1: its entries
    std::vector<uint32_t> entry_;                  ///< per slot: its entry
    std::vector<double> tx_, ty_, tz_;             ///< per entry: the term (scratch of apply)
};

}  // namespace weft
