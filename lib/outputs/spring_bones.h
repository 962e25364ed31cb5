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
//                  fabric's thickness
#pragma once
#include "pipeline/model_record.h"
#include "scene/gltf_patch.h"
#include "fabric/fabric.h"

namespace weft {

/// The update rate spring-bone settings are mapped at (their dynamics depend on it), Hz.
inline constexpr double spring_update_rate = 60.0;

/// One joint's settings for a fabric, a hit radius and the joint's bone length (metres).
SpringJointSettings spring_settings(const Fabric& fabric, double hit_radius, double bone_length);

/// Every built rig proxy's chains as springs, joints by name, a tip node where the chain ends past
/// its last joint.
SpringBones spring_bones(const ModelRecord& result);

}  // namespace weft
