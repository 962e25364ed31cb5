// Internal to lib/garment: what every way of finding a garment shares (garments.h): which nodes a
// garment rides, its facts (counts, pieces, span, weights, verdict) and how it is filed; and the
// phases that find garments by geometry (garments_by_geometry.cpp).
#pragma once
#include <algorithm>
#include <string>
#include <vector>

#include "garment/garments.h"
#include "scene/hierarchy.h"
#include "scene/influences.h"

namespace weft::garment_detail {

inline bool class_selected(const std::vector<std::string>& selected, const std::string& name) {
    return selected.empty() || std::find(selected.begin(), selected.end(), name) != selected.end();
}

inline std::string material_name(const Scene& scene, const Mesh& mesh) {
    const std::string* name = material_of(scene, mesh);
    return name ? *name : std::string();
}

/// What the skeleton looks like to a garment: which nodes are chain joints (and of which chains),
/// which are skin joints, and what holds each unskinned mesh.
struct Rig {
    std::vector<std::vector<int>> node_chains;  ///< per node: indices of the chains it belongs to
    std::vector<char> skin_joint;               ///< per node: a joint of some skin
    std::vector<int> mesh_holder;               ///< per mesh: holder() of its node (used when unskinned)

    bool in_chain(int node) const { return !node_chains[static_cast<size_t>(node)].empty(); }

    /// The node an unskinned mesh at `node` rides: the nearest chain or skin joint at or above
    /// it, or -1 when none (a static prop).
    int holder(const Scene& scene, int node) const {
        for (int n : self_and_ancestors(scene, node))
            if (in_chain(n) || skin_joint[static_cast<size_t>(n)]) return n;
        return -1;
    }
};


Rig make_rig(const Scene& scene, const std::vector<Chain>& chains);

/// Calls f(node, weight) for every influence on vertex v; an unskinned mesh's vertex has one,
/// weight 1 on the node that holds the mesh (none for a static prop).
template <typename F>
inline void for_each_weight(const Scene& scene, const Rig& rig, size_t mesh_index, uint32_t v, F&& f) {
    const Mesh& mesh = scene.meshes[mesh_index];
    if (!is_skinned(mesh)) {
        int h = rig.mesh_holder[mesh_index];
        if (h >= 0) f(h, 1.0);
        return;
    }
    for (const BoneWeight& bw : influences(scene, mesh, v)) f(bw.bone, static_cast<double>(bw.weight));
}

/// "12 mm".
std::string millimetres(double metres);

/// Fills counts, bounds, pieces, weights, chains and the verdict of a garment whose parts are set.
void fill_facts(const Scene& scene, const Rig& rig, const std::vector<Chain>& chains, Garment& g);

/// Files `g` among the garments, its vertices taken so no later rule finds them again, or, when it
/// has a reason not to be one, among the not-garments. Whether it was taken.
bool admit_garment(Garment&& g, std::vector<std::vector<char>>& taken, ModelGarments& found);

/// A config rule naming a class geometry found (`"geometry": "skirt"`) confirms, renames or rejects
/// the garment; without one, a garment smaller than `min_span` is not one.
void apply_geometry_rule(const Scene& scene, const GarmentOptions& options, double min_span, Garment& g);

/// Garments found by geometry on a humanoid's body (garment/geometry.h), in the material no name or
/// chain took, for the classes nothing else found.
void body_garments(const Scene& scene, const Rig& rig, const std::vector<Chain>& chains,
                   std::vector<std::vector<char>>& taken, const GarmentOptions& options, double min_span,
                   ModelGarments& found);

/// Cloth on the model's static meshes found by geometry (garment/prop_sheets.h): one garment per
/// class per node.
void prop_garments(const Scene& scene, const Rig& rig, const std::vector<Chain>& chains,
                   std::vector<std::vector<char>>& taken, const GarmentOptions& options, double min_span,
                   ModelGarments& found);

}  // namespace weft::garment_detail
