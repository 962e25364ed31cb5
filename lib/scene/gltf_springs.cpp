#include "scene/gltf_springs.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include "scene/gltf_nodes.h"

namespace weft {
namespace {

using json = nlohmann::json;

[[noreturn]] void refuse(const std::string& message) { throw std::runtime_error(message); }

json* member(json& object, const char* key) {
    if (!object.is_object()) return nullptr;
    auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

size_t array_size(const json* value) { return value && value->is_array() ? value->size() : 0; }

/// A spring's name for a change list: its name or comment, else its index.
std::string spring_label(const json& spring, const char* key, size_t index) {
    if (spring.is_object() && spring.contains(key) && spring[key].is_string() && !spring[key].get<std::string>().empty())
        return spring[key].get<std::string>();
    return "#" + std::to_string(index);
}

/// The chains and colliders resolved to node indices before anything is written, so a name the file
/// lacks leaves the document as it was.
struct Resolved {
    std::vector<std::vector<int>> chain_nodes;  ///< per SpringBones::chains: the joints' nodes
    std::vector<int> collider_node;             ///< per SpringBones::colliders: its bone's node
};

class SpringWriter {
public:
    SpringWriter(json& doc, const SpringBones& springs) : doc_(doc), springs_(springs) {}

    SpringsWritten write() {
        if (!doc_.contains("nodes") || !doc_["nodes"].is_array()) refuse("the file has no nodes");
        resolve();
        vrm0_ = doc_.contains("extensions") && doc_["extensions"].is_object() && doc_["extensions"].contains("VRM") &&
                doc_["extensions"]["VRM"].is_object();
        worlds_ = gltf_node_worlds(doc_["nodes"]);
        if (vrm0_) write_vrm0();
        else write_vrmc();
        return out_;
    }

private:
    // ---- names to nodes -----------------------------------------------------------------------------

    int node_named(const std::string& name, const std::string& what) {
        auto [first, last] = by_name_.equal_range(name);
        if (first == last) refuse(what + " '" + name + "' is no node of the file");
        if (std::next(first) != last) refuse(what + " '" + name + "' names more than one node of the file");
        return first->second;
    }

    void resolve() {
        const json& nodes = doc_["nodes"];
        for (size_t i = 0; i < nodes.size(); ++i)
            if (nodes[i].is_object() && nodes[i].contains("name") && nodes[i]["name"].is_string())
                by_name_.emplace(nodes[i]["name"].get<std::string>(), int(i));
        for (const SpringChain& chain : springs_.chains) {
            if (chain.joints.empty() || chain.settings.size() != chain.joints.size())
                refuse("spring '" + chain.name + "' has no joints or not one setting per joint");
            std::vector<int> nodes_of_chain;
            for (const std::string& j : chain.joints) nodes_of_chain.push_back(node_named(j, "spring joint"));
            resolved_.chain_nodes.push_back(std::move(nodes_of_chain));
        }
        for (const BodySpringCollider& c : springs_.colliders) resolved_.collider_node.push_back(node_named(c.node, "collider bone"));
    }

    bool adds_springs() const {
        return std::any_of(springs_.chains.begin(), springs_.chains.end(), [](const SpringChain& c) { return !c.authored; });
    }

    // ---- nodes weft adds ------------------------------------------------------------------------------

    int add_child(int parent, json node, const Mat4& local) {
        json& nodes = doc_["nodes"];
        const int g = static_cast<int>(nodes.size());
        nodes.push_back(std::move(node));
        json& p = nodes[size_t(parent)];
        if (!p.contains("children") || !p["children"].is_array()) p["children"] = json::array();
        p["children"].push_back(g);
        worlds_.push_back(worlds_[size_t(parent)] * local);
        return g;
    }

    std::string unused_name(const std::string& base) const {
        std::string name = base;
        for (int n = 2; by_name_.count(name) || added_names_.count(name); ++n) name = base + std::to_string(n);
        return name;
    }

    /// A tip node past `last` at `tip` (scene space = the file's at its default pose).
    int add_tip(int last, const Vec3& tip) {
        const std::string name = unused_name(doc_["nodes"][size_t(last)].value("name", std::string()) + "_end");
        added_names_.insert({name, 0});
        Mat4 inverse;
        if (!worlds_[size_t(last)].inverse(inverse)) refuse("spring joint '" + name + "' hangs from a node that cannot be inverted");
        const Vec3 t = inverse.transform_point(tip);
        ++out_.tips_added;
        return add_child(last, json{{"name", name}, {"translation", {t.x, t.y, t.z}}}, Mat4::translation(t));
    }

    /// The node a collider on `bone` sits on: the bone itself when its world scale is 1 (or not uniform),
    /// else one child per bone that undoes the scale, so the radius reads in metres in every runtime.
    /// "Uniform" allows the float noise exporters leave in a chain of scales (the Fox's bones stand at
    /// 100 x (1, 0.9999986, 0.9999998): at 1e-6 two of its legs kept their colliders on the bone, the
    /// radius in a space 100 times larger than the others').
    int collider_node(int bone) {
        if (auto it = collider_node_.find(bone); it != collider_node_.end()) return it->second;
        Vec3 t, s;
        Quat r;
        worlds_[size_t(bone)].decompose(t, r, s);
        constexpr double kUniform = 1e-4;  // relative; float32 scales carry about 6e-8 each
        const bool uniform = std::fabs(s.x - s.y) <= kUniform * std::fabs(s.x) && std::fabs(s.x - s.z) <= kUniform * std::fabs(s.x);
        int node = bone;
        if (uniform && std::fabs(s.x - 1) > 1e-6 && s.x > 0) {
            const std::string name = unused_name(doc_["nodes"][size_t(bone)].value("name", std::string()) + "_colliders");
            added_names_.insert({name, 0});
            const double k = 1 / s.x;
            node = add_child(bone, json{{"name", name}, {"scale", {k, k, k}}}, Mat4::uniform_scale(k));
            ++out_.collider_nodes_added;
        }
        collider_node_[bone] = node;
        return node;
    }

    Vec3 in_node(int node, const Vec3& p) const {
        Mat4 inverse;
        if (!worlds_[size_t(node)].inverse(inverse)) refuse("a collider's node cannot be inverted");
        return inverse.transform_point(p);
    }

    /// Every added chain's nodes, its tip appended.
    std::vector<std::vector<int>> added_chain_nodes() {
        std::vector<std::vector<int>> out;
        for (size_t c = 0; c < springs_.chains.size(); ++c) {
            const SpringChain& chain = springs_.chains[c];
            if (chain.authored) continue;
            std::vector<int> nodes = resolved_.chain_nodes[c];
            if (chain.tip) nodes.push_back(add_tip(nodes.back(), *chain.tip));
            out.push_back(std::move(nodes));
        }
        return out;
    }

    const SpringChain& added_chain(size_t k) const {
        size_t seen = 0;
        for (const SpringChain& chain : springs_.chains)
            if (!chain.authored && seen++ == k) return chain;
        refuse("internal: added chain out of range");
    }

    /// Records a change of `key` in `object` to `value` (nothing when equal) and makes it.
    void change(json& object, const char* key, json value, const std::string& spring, const std::string& joint) {
        json before = object.contains(key) ? object[key] : json(nullptr);
        if (before == value) return;
        out_.changes.push_back({spring, joint, key, before, value});
        object[key] = std::move(value);
    }

    // ---- VRMC_springBone 1.0 ------------------------------------------------------------------------------

    static json vrmc_joint(int node, const SpringJointSettings& s) {
        return {{"node", node},
                {"hitRadius", s.hit_radius},
                {"stiffness", s.stiffness},
                {"gravityPower", s.gravity_power},
                {"gravityDir", {s.gravity_dir.x, s.gravity_dir.y, s.gravity_dir.z}},
                {"dragForce", s.drag_force}};
    }

    /// The body colliders and their group; returns the group's index, or -1 when there are none.
    int vrmc_body_colliders(json& ext) {
        if (springs_.colliders.empty()) return -1;
        if (!ext.contains("colliders") || !ext["colliders"].is_array()) ext["colliders"] = json::array();
        if (!ext.contains("colliderGroups") || !ext["colliderGroups"].is_array()) ext["colliderGroups"] = json::array();
        json members = json::array();
        for (size_t i = 0; i < springs_.colliders.size(); ++i) {
            const BodySpringCollider& c = springs_.colliders[i];
            const int node = collider_node(resolved_.collider_node[i]);
            const Vec3 a = in_node(node, c.a), b = in_node(node, c.b);
            json shape = c.capsule ? json{{"capsule", {{"offset", {a.x, a.y, a.z}}, {"radius", c.radius}, {"tail", {b.x, b.y, b.z}}}}}
                                   : json{{"sphere", {{"offset", {a.x, a.y, a.z}}, {"radius", c.radius}}}};
            members.push_back(ext["colliders"].size());
            ext["colliders"].push_back({{"node", node}, {"shape", std::move(shape)}});
            ++out_.colliders_added;
        }
        ext["colliderGroups"].push_back({{"name", "weft body"}, {"colliders", members}});
        ++out_.collider_groups_added;
        return int(ext["colliderGroups"].size() - 1);
    }

    void vrmc_retune(json& springs, size_t authored) {
        for (size_t c = 0; c < springs_.chains.size(); ++c) {
            const SpringChain& chain = springs_.chains[c];
            if (!chain.authored) continue;
            for (size_t s = 0; s < authored; ++s) {
                json* joints = member(springs[s], "joints");
                if (!joints || !joints->is_array()) continue;
                for (size_t j = 0; j + 1 < joints->size(); ++j) {  // the last joint is a tail only
                    json& joint = (*joints)[j];
                    if (!joint.is_object() || !joint.contains("node") || !joint["node"].is_number_integer()) continue;
                    const auto& chain_nodes = resolved_.chain_nodes[c];
                    auto at = std::find(chain_nodes.begin(), chain_nodes.end(), joint["node"].get<int>());
                    if (at == chain_nodes.end()) continue;
                    const SpringJointSettings& set = chain.settings[size_t(at - chain_nodes.begin())];
                    const json wanted = vrmc_joint(*at, set);
                    const std::string label = spring_label(springs[s], "name", s);
                    const std::string name = doc_["nodes"][size_t(*at)].value("name", std::string());
                    for (const char* key : {"hitRadius", "stiffness", "gravityPower", "gravityDir", "dragForce"})
                        change(joint, key, wanted[key], label, name);
                }
            }
        }
    }

    void write_vrmc() {
        json* ext_in = doc_.contains("extensions") && doc_["extensions"].is_object() ? member(doc_["extensions"], "VRMC_springBone") : nullptr;
        const size_t authored = ext_in ? array_size(member(*ext_in, "springs")) : 0;
        const size_t own_colliders = ext_in ? array_size(member(*ext_in, "colliders")) : 0;
        out_.authored_springs = uint32_t(authored);
        const bool give_authored = springs_.collide_authored && authored > 0 && own_colliders == 0 && !springs_.colliders.empty();
        note_collide_authored(authored, own_colliders);
        if (!adds_springs() && !(springs_.retune && authored > 0) && !give_authored) return;

        if (!doc_.contains("extensions") || !doc_["extensions"].is_object()) doc_["extensions"] = json::object();
        json& ext = doc_["extensions"]["VRMC_springBone"];
        if (!ext.is_object()) ext = json{{"specVersion", "1.0"}};
        if (!ext.contains("springs") || !ext["springs"].is_array()) ext["springs"] = json::array();
        if (springs_.retune) vrmc_retune(ext["springs"], authored);

        const std::vector<std::vector<int>> added = added_chain_nodes();
        // The file's own groups, and one of its colliders where it has colliders but no group (a group
        // added beside the file's, never a change of them).
        json groups = json::array();
        for (size_t g = 0; g < array_size(member(ext, "colliderGroups")); ++g) groups.push_back(g);
        if (groups.empty() && own_colliders > 0) {
            json all = json::array();
            for (size_t c = 0; c < own_colliders; ++c) all.push_back(c);
            ext["colliderGroups"] = json::array({json{{"name", "colliders"}, {"colliders", all}}});
            groups.push_back(0);
            ++out_.collider_groups_added;
        }
        const int body = (!added.empty() || give_authored) ? vrmc_body_colliders(ext) : -1;
        if (body >= 0) groups.push_back(body);
        if (give_authored)
            for (size_t s = 0; s < authored; ++s)
                change(ext["springs"][s], "colliderGroups", json::array({body}), spring_label(ext["springs"][s], "name", s), "");
        for (size_t k = 0; k < added.size(); ++k) {
            const SpringChain& chain = added_chain(k);
            json joints = json::array();
            for (size_t j = 0; j < added[k].size(); ++j)
                joints.push_back(vrmc_joint(added[k][j], chain.settings[std::min(j, chain.settings.size() - 1)]));
            json spring = {{"name", chain.name}, {"joints", joints}};
            if (!groups.empty()) spring["colliderGroups"] = groups;
            ext["springs"].push_back(std::move(spring));
            ++out_.springs_added;
            out_.joints_added += uint32_t(joints.size());
        }
        if (!doc_.contains("extensionsUsed") || !doc_["extensionsUsed"].is_array()) doc_["extensionsUsed"] = json::array();
        json& used = doc_["extensionsUsed"];
        if (std::find(used.begin(), used.end(), "VRMC_springBone") == used.end()) used.push_back("VRMC_springBone");
        out_.format = "VRMC_springBone";
    }

    // ---- VRM 0.x secondaryAnimation -----------------------------------------------------------------------

    /// Spheres standing for a collider: a capsule's core covered one radius apart (every point of the
    /// core within half a radius of a centre, so the spheres' union reaches 0.87 of the radius between them).
    static std::vector<Vec3> sphere_centres(const BodySpringCollider& c) {
        if (!c.capsule) return {c.a};
        const double length = distance(c.a, c.b);
        const int n = c.radius > 0 ? std::max(2, int(std::ceil(length / c.radius)) + 1) : 2;
        std::vector<Vec3> out;
        for (int i = 0; i < n; ++i) out.push_back(c.a + (c.b - c.a) * (double(i) / (n - 1)));
        return out;
    }

    /// The body colliders as collider groups, one per node; returns their indices.
    json vrm0_body_colliders(json& secondary) {
        json indices = json::array();
        std::map<int, size_t> group_of_node;
        json& groups = secondary["colliderGroups"];
        for (size_t i = 0; i < springs_.colliders.size(); ++i) {
            const BodySpringCollider& c = springs_.colliders[i];
            const int node = collider_node(resolved_.collider_node[i]);
            if (!group_of_node.count(node)) {
                group_of_node[node] = groups.size();
                indices.push_back(groups.size());
                groups.push_back({{"node", node}, {"colliders", json::array()}});
                ++out_.collider_groups_added;
            }
            for (const Vec3& centre : sphere_centres(c)) {
                const Vec3 o = in_node(node, centre);
                // VRM 0.x stores a collider offset with Z negated (UniVRM's axes; three-vrm and weft's
                // import negate it back).
                groups[group_of_node[node]]["colliders"].push_back({{"offset", {{"x", o.x}, {"y", o.y}, {"z", -o.z}}}, {"radius", c.radius}});
                ++out_.colliders_added;
            }
        }
        return indices;
    }

    /// A bone group's five settings; recorded as changes of an authored group, set outright on an added one.
    void vrm0_settings(json& group, const SpringJointSettings& s, const std::string& label, bool authored) {
        const std::pair<const char*, json> values[] = {
            {"stiffiness", s.stiffness},  // sic: VRM 0.x's spelling
            {"gravityPower", s.gravity_power},
            {"gravityDir", json{{"x", s.gravity_dir.x}, {"y", s.gravity_dir.y}, {"z", s.gravity_dir.z}}},
            {"dragForce", s.drag_force},
            {"hitRadius", s.hit_radius}};
        for (const auto& [key, value] : values)
            if (authored) change(group, key, value, label, "");
            else group[key] = value;
    }

    void vrm0_retune(json& bone_groups, size_t authored) {
        for (size_t g = 0; g < authored; ++g) {
            json* bones = member(bone_groups[g], "bones");
            if (!bones || !bones->is_array()) continue;
            const SpringChain* chain = nullptr;
            for (const json& root : *bones) {
                for (size_t c = 0; c < springs_.chains.size() && !chain; ++c)
                    if (springs_.chains[c].authored && root.is_number_integer() && resolved_.chain_nodes[c].front() == root.get<int>())
                        chain = &springs_.chains[c];
                if (chain) break;
            }
            if (chain) vrm0_settings(bone_groups[g], bone_group_settings(*chain), spring_label(bone_groups[g], "comment", g), true);
        }
    }

    void write_vrm0() {
        json& vrm = doc_["extensions"]["VRM"];
        json* secondary_in = member(vrm, "secondaryAnimation");
        const size_t authored = secondary_in ? array_size(member(*secondary_in, "boneGroups")) : 0;
        size_t own_colliders = 0;
        if (secondary_in)
            if (json* groups = member(*secondary_in, "colliderGroups"); groups && groups->is_array())
                for (json& g : *groups) own_colliders += array_size(member(g, "colliders"));
        out_.authored_springs = uint32_t(authored);
        const bool give_authored = springs_.collide_authored && authored > 0 && own_colliders == 0 && !springs_.colliders.empty();
        note_collide_authored(authored, own_colliders);
        if (!adds_springs() && !(springs_.retune && authored > 0) && !give_authored) return;

        json& secondary = vrm["secondaryAnimation"];
        if (!secondary.is_object()) secondary = json::object();
        if (!secondary.contains("boneGroups") || !secondary["boneGroups"].is_array()) secondary["boneGroups"] = json::array();
        if (!secondary.contains("colliderGroups") || !secondary["colliderGroups"].is_array()) secondary["colliderGroups"] = json::array();
        if (springs_.retune) vrm0_retune(secondary["boneGroups"], authored);

        const std::vector<std::vector<int>> added = added_chain_nodes();
        json groups = json::array();
        for (size_t g = 0; g < secondary["colliderGroups"].size(); ++g) groups.push_back(g);
        const json body = (!added.empty() || give_authored) && !springs_.colliders.empty() ? vrm0_body_colliders(secondary) : json::array();
        for (const json& g : body) groups.push_back(g);
        if (give_authored)
            for (size_t g = 0; g < authored; ++g)
                change(secondary["boneGroups"][g], "colliderGroups", body, spring_label(secondary["boneGroups"][g], "comment", g), "");
        for (size_t k = 0; k < added.size(); ++k) {
            // A bone group lists chain roots; every descendant swings with the group's settings.
            const SpringChain& chain = added_chain(k);
            json group = {{"comment", chain.name}, {"center", -1}, {"bones", {added[k].front()}}, {"colliderGroups", groups}};
            vrm0_settings(group, bone_group_settings(chain), chain.name, false);
            secondary["boneGroups"].push_back(std::move(group));
            ++out_.springs_added;
            out_.joints_added += uint32_t(added[k].size());
        }
        out_.format = "VRM0.secondaryAnimation";
    }

    void note_collide_authored(size_t authored, size_t own_colliders) {
        if (!springs_.collide_authored || authored == 0) return;
        if (own_colliders > 0)
            out_.note = "the file declares " + std::to_string(own_colliders) +
                        " colliders of its own: its authored springs keep them (the body colliders go to authored springs only in a file with none)";
        else if (springs_.colliders.empty())
            out_.note = "no body collider was fitted: the authored springs keep no collider";
    }

    json& doc_;
    const SpringBones& springs_;
    Resolved resolved_;
    std::multimap<std::string, int> by_name_;
    std::map<std::string, int> added_names_;
    std::vector<Mat4> worlds_;
    std::map<int, int> collider_node_;
    bool vrm0_ = false;
    SpringsWritten out_;
};

}  // namespace

// One setting per bone group: a chain's root's, with its widest hit radius but no wider than any
// joint's clearance at rest (wider, a collider would push that joint off its rest pose). The tip node,
// a leaf, swings too in VRM 0.x (towards a point its runtimes put 7 cm past it), but no vertex and no
// joint hangs from it.
SpringJointSettings bone_group_settings(const SpringChain& chain) {
    SpringJointSettings s = chain.settings.empty() ? SpringJointSettings{} : chain.settings.front();
    double clearance = INFINITY;
    for (const SpringJointSettings& j : chain.settings) {
        s.hit_radius = std::max(s.hit_radius, j.hit_radius);
        clearance = std::min(clearance, j.rest_clearance);
    }
    s.hit_radius = std::max(0.0, std::min(s.hit_radius, clearance));
    return s;
}

SpringsWritten write_spring_bones(nlohmann::json& doc, const SpringBones& springs) { return SpringWriter(doc, springs).write(); }

}  // namespace weft
