// Body colliders (docs/colliders.md): spheres and capsules fitted to the character's own skin, one
// per body bone, so validation can tell cloth that rests on the body from cloth that sinks into it.
//
//   fit      every skinned vertex that no garment claims and no chain joint dominates goes to the
//            bone that weights it most; a bone whose vertices span less than min_bone_span (a
//            finger, a toe, a twist helper) hands them to its nearest body ancestor; each bone left
//            gets a capsule along the principal axis of its vertices (radius: their mean distance
//            from that axis), or a sphere where that capsule would be shorter than its radius (a
//            head, a fist)
//   clear    garments are authored over the body, so a collider reaching through one at rest
//            overshoots the skin there: it shrinks to clear every garment vertex and chain joint by
//            rest_clearance, and is left out when that takes more than half its radius
//   roots    a garment's body bone (the bone holding most of its weight) keeps no collider whose
//            shape holds any vertex of that garment the bone dominates: such a collider would trap
//            the cloth's own roots (a skirt's waistband inside the hips, a scalp inside the head)
//   declared colliders the file declares (VRM spring colliders) are used as declared, as spheres
//   config   edits add, remove or resize colliders by bone name after fitting
//
// Every collider rides its bone: its ends are in the bone's rigid space (the bone's bind placement
// with any scale taken out), metres, so an engine or a clip moves it with the bone.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "garment/garments.h"
#include "geom/vec.h"
#include "scene/scene.h"

namespace weft {

enum class ColliderShape : uint8_t { sphere, capsule };

/// "sphere" or "capsule": stable, used in the sidecar and reports.
const char* collider_shape_name(ColliderShape shape);

struct BodyCollider {
    std::string bone;               ///< the node it rides
    int node = -1;                  ///< that node's index in the Scene
    ColliderShape shape = ColliderShape::capsule;
    double radius = 0;              ///< metres
    Vec3 a, b;                      ///< segment ends in the bone's rigid space, metres; a sphere has a == b (its centre)
    std::string origin;             ///< "fitted", "declared" or "config"
    std::vector<std::string> merged;///< fitted: smaller bones whose vertices it took over, by name
    uint32_t vertices = 0;          ///< fitted: the skin vertices it stands for
    double inside_share = 0;        ///< fitted: share of those vertices inside it, 0..1
    double worst_distance = 0;      ///< fitted: metres, the largest |distance| of one of them from its surface
    double fitted_radius = 0;       ///< fitted: the radius before it shrank to clear a garment at rest (= radius
                                    ///< when it did not)
    std::string cleared;            ///< fitted: the garment it shrank to clear, "" when none
};

/// A bone whose fitted collider was left out, and why.
struct LeftOutCollider {
    std::string bone;
    std::string reason;  ///< one line: the garment whose roots it would trap and how many vertices, or the config rule
};

/// One edit a config makes to the fitted set (docs/colliders.md#config).
struct ColliderEdit {
    enum Kind : uint8_t { add, remove, resize } kind = resize;
    std::string bone;
    std::optional<double> radius;   ///< add: required; resize: the new radius
    std::optional<double> scale;    ///< resize: radius multiplied by this
    ColliderShape shape = ColliderShape::sphere;  ///< add
    Vec3 a, b;                      ///< add: ends in the bone's rigid space (b ignored for a sphere)
    std::string origin;             ///< where the edit comes from, for warnings ("cfg.json /colliders/2"); may be ""
};

struct BodyColliderOptions {
    double min_bone_span = 0.06;    ///< metres: a bone whose vertices span less merges into its parent
    uint32_t min_vertices = 8;      ///< a bone with fewer vertices merges into its parent
    double min_radius = 0.02;       ///< metres: a bone whose collider would be thinner merges into its parent
    double rest_clearance = 0.02;   ///< metres every garment vertex and chain joint stays outside a fitted
                                    ///< collider at rest: the thickest library fabric's contact (leather)
    std::vector<ColliderEdit> edits;
};

struct BodyColliders {
    std::vector<BodyCollider> colliders;     ///< in node order; declared ones after fitted ones
    std::vector<LeftOutCollider> left_out;   ///< in node order
    std::vector<std::string> warnings;       ///< config edits skipped (a bone the model lacks, or with no collider), each
                                             ///< starting with the edit's origin when it has one
};

/// Fits, filters and edits the body colliders of one model (see the file comment). `garments` is
/// what find_garments found in `scene` (or in the scene grow started from: parts index the same
/// meshes and vertices). Deterministic.
BodyColliders fit_body_colliders(const Scene& scene, const ModelGarments& garments,
                                 const BodyColliderOptions& options = {});

/// The collider fitted to `points` (model space), riding a bone at `bone_rigid` (its rigid bind
/// placement): the shape fit_body_colliders gives one bone, with its fit report.
BodyCollider fit_collider(const std::vector<Vec3>& points, const Mat4& bone_rigid);

/// The bone's rigid bind placement: its bind world transform with scale and reflection taken out.
Mat4 bone_rigid_placement(const Scene& scene, int node);

/// Signed distance of a model-space point from a collider placed by `bone_rigid`; negative inside.
double collider_distance(const BodyCollider& collider, const Mat4& bone_rigid, const Vec3& p);

}  // namespace weft
