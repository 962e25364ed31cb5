// A model's rig proxies as spring bones for the runtimes artists already use (three-vrm, UniVRM,
// Godot's VRM add-on, VRM4U): each chain a spring, its settings mapped from the fabric weft
// validated it with. docs/format.md "Spring bones" derives the mapping; in short, at the reference
// update rate f_u = 60 Hz (h = 1/f_u), a spring-bone joint's update (three-vrm 3, UniVRM)
//
//   tail' = tail + (tail - tail_prev)·(1 - dragForce) + rest_dir·stiffness·h + gravityDir·gravityPower·h,
//   then tail' is put back at the bone's length L from the joint
//
// is, for a small swing x (metres at the tail), x'' = -(stiffness/(h·L))·x with the velocity kept
// (1 - dragForce) per update: a damped oscillator, so
//
//   stiffness    = (2π·pose)²·h·L            pose: the fabric's pull to the bind pose, Hz; L: metres
//   dragForce    = 1 - exp(-damping·h)       damping: the fabric's velocity decay rate, 1/s
//   gravityPower = 0                         the fabric's pose row holds the bind pose against gravity
//                                            (rest weight lifted), so the rest pose is the equilibrium
//   hitRadius    = the joint's hull radius (the capsule round the vertices it weights), else the
//                  fabric's thickness, no wider than the joint's tail's clearance from every collider at rest
//
// Which springs are weft's to write (scene/gltf_springs.h): a chain a spring of the file declares
// (VRM 0.x bone groups and every descendant of their roots, VRMC_springBone joints) is the artist's
// and is kept as authored; every other chain (grown, or found by its joints' names) is added. The
// fitted body colliders (body/body_colliders.h; not the file's own, which the file keeps) go with them.
#pragma once
#include "fabric/fabric.h"
#include "pipeline/model_options.h"
#include "pipeline/model_record.h"
#include "scene/gltf_springs.h"

namespace weft {

/// The update rate spring-bone settings are mapped at (their dynamics depend on it), Hz.
inline constexpr double spring_update_rate = 60.0;

/// One joint's settings for a fabric, a hit radius and the joint's bone length (metres).
SpringJointSettings spring_settings(const Fabric& fabric, double hit_radius, double bone_length);

/// Every built rig proxy's chains as springs (joints by name, a tip node where the chain ends past its
/// last joint, `authored` where a spring of the file declares it), the fitted body colliders in scene
/// space, and what `options` asks of the authored springs (retune_springs, collide_authored_springs).
SpringBones spring_bones(const ModelRecord& result, const ModelOptions& options);

}  // namespace weft
