// A tube skirt: the test body several suites swing into colliders (tests/validate penetration,
// tests/pipeline hand collider).
#pragma once
#include <cmath>
#include <cstdint>
#include <numbers>
#include <vector>

#include "solver/test_proxies.h"

namespace weft::test {

/// A cotton tube skirt of radius `waist`, `around` particles round and `down` rings `drop` apart,
/// hanging from its held top ring at the origin; 0.4 kg in all.
inline ClothProxy tube_skirt(uint32_t around, uint32_t down, double waist, double drop) {
    ProxyDraft d;
    d.garment = "skirt";
    auto id = [around](uint32_t a, uint32_t k) { return k * around + a % around; };
    for (uint32_t k = 0; k < down; ++k)
        for (uint32_t a = 0; a < around; ++a) {
            const double t = 2 * std::numbers::pi * a / around;
            d.position.push_back({waist * std::cos(t), -drop * k, waist * std::sin(t)});
            d.mass.push_back(0.4 / (around * down));
            d.held.push_back(k == 0);
        }
    for (uint32_t k = 0; k < down; ++k)
        for (uint32_t a = 0; a < around; ++a) {
            if (k > 0) d.edges.push_back({id(a, k), id(a + 1, k)});
            if (k + 1 < down) {
                d.edges.push_back({id(a, k), id(a, k + 1)});
                d.edges.push_back({id(a, k), id(a + 1, k + 1)});
                d.triangles.push_back({id(a, k), id(a + 1, k + 1), id(a + 1, k)});
                d.triangles.push_back({id(a, k), id(a, k + 1), id(a + 1, k + 1)});
            }
        }
    std::vector<uint32_t> pin;
    for (uint32_t i = 0; i < around; ++i) pin.push_back(i);
    d.pins = {pin};
    ClothProxy p = finish_proxy(d);
    p.garment_class = "skirt";
    p.suggested_fabric = "cotton";
    return p;
}

}  // namespace weft::test
