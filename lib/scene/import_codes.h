// Every finding import_scene reports, with its stable code, default severity and a one-line
// description (the Khronos glTF-Validator's table shape); the docs list is generated from this.
#pragma once
#include <string_view>

#include "io/issue.h"

namespace weft {

inline constexpr IssueCode kFileNotFound{"FILE_NOT_FOUND", Severity::error, "The path does not exist."};
inline constexpr IssueCode kNotAFile{"NOT_A_FILE", Severity::error, "The path is a directory or another non-regular file."};
inline constexpr IssueCode kFileUnreadable{"FILE_UNREADABLE", Severity::error, "The file exists but cannot be opened or read (permissions, I/O error)."};
inline constexpr IssueCode kFileEmpty{"FILE_EMPTY", Severity::error, "The file has no bytes."};
inline constexpr IssueCode kFileTooLarge{"FILE_TOO_LARGE", Severity::error, "The file is larger than ImportOptions::max_file_bytes."};
inline constexpr IssueCode kGlbTruncated{"GLB_TRUNCATED", Severity::error, "A GLB whose header or chunk lengths run past the end of the file."};
inline constexpr IssueCode kGlbMalformed{"GLB_MALFORMED", Severity::error, "A GLB with a bad version, a first chunk that is not JSON, or a length field that contradicts itself."};
inline constexpr IssueCode kGlbTrailingBytes{"GLB_TRAILING_BYTES", Severity::warning, "A GLB file longer than its header's length field; the extra bytes were ignored."};
inline constexpr IssueCode kGltfJsonInvalid{"GLTF_JSON_INVALID", Severity::error, "The glTF JSON (or the GLB JSON chunk) does not parse as JSON."};
inline constexpr IssueCode kGltfDuplicateKey{"GLTF_DUPLICATE_KEY", Severity::error, "A glTF JSON object writes one key twice; JSON readers disagree on which copy counts (Assimp reads the first, most others the last)."};
inline constexpr IssueCode kGltfReferenceInvalid{"GLTF_REFERENCE_INVALID", Severity::error, "A glTF accessor, buffer view or buffer is missing, out of bounds or of the wrong type."};
inline constexpr IssueCode kExtensionRequired{"EXTENSION_REQUIRED", Severity::error, "The glTF lists an extension in extensionsRequired that weft does not read; the message names it. EXT_meshopt_compression, KHR_draco_mesh_compression and KHR_mesh_quantization are read, and extensions that change only how a material looks are passed through (docs/gltf-reading.md)."};
inline constexpr IssueCode kGltfNonconforming{"GLTF_NONCONFORMING", Severity::warning, "The glTF breaks a rule of the glTF 2.0 specification in a way whose meaning is unambiguous (the message names the rule and the element); it was read as three.js and Blender read it. Tell the exporter's authors."};
inline constexpr IssueCode kBufferMissing{"BUFFER_MISSING", Severity::error, "An external glTF buffer file is missing, unreadable or shorter than declared."};
inline constexpr IssueCode kFileOutsideFolder{"FILE_OUTSIDE_FOLDER", Severity::error, "A file the model names (buffer, image, material library...) resolves outside the model's folder: by `..`, an absolute path or a link. Refused unless --allow-outside-folder."};
inline constexpr IssueCode kReferencedFileMissing{"REFERENCED_FILE_MISSING", Severity::error, "A file the model names (image, material library...) is missing, unreadable or not a regular file (a FIFO or device is never opened)."};
inline constexpr IssueCode kCountTooLarge{"COUNT_TOO_LARGE", Severity::error, "A count in the file (PLY elements or list length, MD5 entries) is larger than the bytes that follow could hold; refused before anything is allocated for it."};
inline constexpr IssueCode kModelIndexOutOfRange{"MODEL_INDEX_OUT_OF_RANGE", Severity::error, "An index inside a PLY, MD5 or Collada file (a weight range, a joint, an accessor over its array) points past what it indexes."};
inline constexpr IssueCode kUnknownFormat{"UNKNOWN_FORMAT", Severity::error, "No reader recognises the bytes: not a model file."};
inline constexpr IssueCode kImportFailed{"IMPORT_FAILED", Severity::error, "Assimp refused the file; its reason is quoted."};
inline constexpr IssueCode kImporterMissing{"IMPORTER_MISSING", Severity::error, "The model's format (FBX, OBJ, glTF 1.0, ...) is read by weft's Assimp module, weft-assimp.so, which could not be loaded: missing, unloadable (libassimp absent) or from another build; the message names each file tried. glTF 2.0 and VRM do not need it."};
inline constexpr IssueCode kNoMeshes{"NO_MESHES", Severity::error, "The model has no triangle meshes."};
inline constexpr IssueCode kNonFinitePosition{"NON_FINITE_POSITION", Severity::error, "A vertex position is NaN or infinite."};
inline constexpr IssueCode kNonFiniteTransform{"NON_FINITE_TRANSFORM", Severity::error, "A node transform or inverse bind matrix is NaN or infinite."};
inline constexpr IssueCode kIndexOutOfRange{"INDEX_OUT_OF_RANGE", Severity::error, "A triangle names a vertex the primitive does not have."};
inline constexpr IssueCode kIndexCountInvalid{"INDEX_COUNT_INVALID", Severity::error, "A triangle list whose index (or vertex) count is not a multiple of 3: its last triangle is incomplete."};
inline constexpr IssueCode kWeightInvalid{"WEIGHT_INVALID", Severity::error, "A vertex weight is NaN, infinite or negative."};
inline constexpr IssueCode kInverseBindSingular{"INVERSE_BIND_SINGULAR", Severity::error, "An inverse bind matrix of a weighting bone is singular (all zero, or a zero scale): it would collapse the mesh."};
inline constexpr IssueCode kJointOutOfRange{"JOINT_OUT_OF_RANGE", Severity::error, "A vertex weight names a joint the skin does not have."};
inline constexpr IssueCode kSceneReferenceInvalid{"SCENE_REFERENCE_INVALID", Severity::error, "The imported scene names a node, mesh, material, skin or joint it does not have, or its node parents form a cycle: an importer let a broken file through. Report it with the file."};
inline constexpr IssueCode kUnitsConverted{"UNITS_CONVERTED", Severity::info, "Source units were not metres; everything was scaled to metres."};
inline constexpr IssueCode kAxesConverted{"AXES_CONVERTED", Severity::info, "Source up axis was not +Y; everything was rotated to Y up."};
inline constexpr IssueCode kDegenerateTriangles{"DEGENERATE_TRIANGLES", Severity::warning, "Triangles with a repeated corner or two corners at one position (kept, or dropped when asked)."};
inline constexpr IssueCode kLinesDropped{"LINES_DROPPED", Severity::warning, "Line or point primitives beside the triangles were dropped (counted in Mesh::line_count)."};
inline constexpr IssueCode kWeightsNormalised{"WEIGHTS_NORMALISED", Severity::info, "Vertex weights did not sum to 1 and were normalised."};
inline constexpr IssueCode kUnweightedVertices{"UNWEIGHTED_VERTICES", Severity::warning, "Vertices of a skinned mesh with no weight at all (left at their node's rest pose)."};
inline constexpr IssueCode kNonFiniteNormal{"NON_FINITE_NORMAL", Severity::warning, "A normal was NaN, infinite or zero; the mesh's normals were dropped."};
inline constexpr IssueCode kMeshNotInstanced{"MESH_NOT_INSTANCED", Severity::info, "A mesh no node of the scene instances; it is not part of the model at rest and was skipped."};
inline constexpr IssueCode kSpringInvalid{"SPRING_INVALID", Severity::warning, "A declared spring or collider names a node that does not exist or is malformed; it was skipped."};
inline constexpr IssueCode kSpringOutOfRange{"SPRING_OUT_OF_RANGE", Severity::warning, "A number a declared spring or spring collider gives is outside what it can mean for this model: a collider whose radius is larger than the whole model or whose ends lie farther outside it than its size (skipped), or a spring's stiffness, gravity power, drag force or hit radius that is negative, not finite, a drag past 1 or a hit radius larger than the model (kept as the file has it: weft writes the file's springs back unchanged). The message names the node or spring, the value and the model's size."};
inline constexpr IssueCode kDefaultPoseOffBind{"DEFAULT_POSE_OFF_BIND", Severity::warning, "The file's default (node) pose turns a skin joint more than 10 degrees from its bind pose (the inverse bind matrices): weft works at the default pose, so grown garments are fitted there and a viewer showing the bind pose shows them off the body (docs/growth.md#default-pose)."};
inline constexpr IssueCode kInstancesOverBudget{"INSTANCES_OVER_BUDGET", Severity::error, "The model's nodes instance meshes more often than the budget allows (10,000 scene meshes: one per primitive per instancing node; docs/bad-inputs.md#budgets); refused before any copy is made. The message names the mesh instanced most."};
inline constexpr IssueCode kVerticesOverBudget{"VERTICES_OVER_BUDGET", Severity::error, "The model's meshes, one copy per instancing node, hold more vertices than the budget allows (2,000,000; docs/bad-inputs.md#budgets); refused before any copy is made. The message names the mesh that holds most."};
inline constexpr IssueCode kClipKeysOverBudget{"CLIP_KEYS_OVER_BUDGET", Severity::warning, "An animation clip's keys (every channel's, counted per channel) would take the model past the key budget (4,000,000; docs/bad-inputs.md#budgets): that clip is dropped by name, the model and its other clips kept."};
inline constexpr IssueCode kVertexOutOfRange{"VERTEX_OUT_OF_RANGE", Severity::error, "A vertex lies farther outside the rest of the model than 1,000 times the model's size (measured without its few most extreme vertices, so one stray vertex at 1e30 cannot move it): the model's size, and every check made against it, would mean nothing. The message names the mesh, the vertex, where it is and the model's size (docs/bad-inputs.md#numbers-from-a-file)."};
inline constexpr IssueCode kTransformOutOfRange{"TRANSFORM_OUT_OF_RANGE", Severity::warning, "A node's transform is outside what it can mean for this model: a glTF rotation that is not a unit quaternion (normalised; a zero one read as no rotation), a zero scale along an axis (what the node holds collapses), or an origin farther outside the model than 1,000 times its size. Kept as described; the message names the node and the value, and counts the nodes like it (docs/bad-inputs.md#numbers-from-a-file)."};
inline constexpr IssueCode kClipKeyOutOfRange{"CLIP_KEY_OUT_OF_RANGE", Severity::warning, "A clip's keys are out of time order (sorted), its rotation keys not of unit length (normalised), or its translation keys move a node farther from its rest than 10,000 times the model's size (those keys skipped: no clip throws a character kilometres). One issue per clip counts each (docs/bad-inputs.md#numbers-from-a-file)."};
inline constexpr IssueCode kClipInvalid{"CLIP_INVALID", Severity::warning, "An animation clip's channel names a node the scene lacks or repeats one, or a key is not finite, out of order or a zero rotation; the channel or key was skipped."};

inline constexpr IssueCode import_codes[] = {
    // The file itself.
    kFileNotFound,
    kNotAFile,
    kFileUnreadable,
    kFileEmpty,
    kFileTooLarge,
    // Container structure, checked before Assimp sees the bytes.
    kGlbTruncated,
    kGlbMalformed,
    kGlbTrailingBytes,
    kGltfJsonInvalid,
    kGltfDuplicateKey,
    kGltfReferenceInvalid,
    kExtensionRequired,
    kBufferMissing,
    kFileOutsideFolder,
    kReferencedFileMissing,
    kCountTooLarge,
    kModelIndexOutOfRange,
    kUnknownFormat,
    kImportFailed,
    kImporterMissing,
    // Content.
    kNoMeshes,
    kNonFinitePosition,
    kNonFiniteTransform,
    kIndexOutOfRange,
    kIndexCountInvalid,
    kWeightInvalid,
    kInverseBindSingular,
    kJointOutOfRange,
    kSceneReferenceInvalid,
    kInstancesOverBudget,
    kVerticesOverBudget,
    kVertexOutOfRange,
    // Fixed or noticed while importing.
    kUnitsConverted,
    kAxesConverted,
    kDegenerateTriangles,
    kLinesDropped,
    kWeightsNormalised,
    kUnweightedVertices,
    kNonFiniteNormal,
    kMeshNotInstanced,
    kGltfNonconforming,
    kSpringInvalid,
    kSpringOutOfRange,
    kTransformOutOfRange,
    kClipInvalid,
    kClipKeyOutOfRange,
    kClipKeysOverBudget,
    kDefaultPoseOffBind,
};

/// The table row for `code`, or nullptr.
constexpr const IssueCode* find_import_code(std::string_view code) { return find_issue_code(import_codes, code); }

}  // namespace weft
