/* The embeddable cloth runtime: weft's solver and .clothproxy decoder behind a small C interface.
 * It depends on the C++ standard library alone (no file I/O, no JSON): the caller reads the proxy's
 * bytes its own way. What every value means, with units, is docs/format.md; how one step works is
 * lib/solver/solver.h.
 *
 *   char error[256];
 *   weft_runtime* rt = weft_runtime_load(bytes, size, NULL, error, sizeof error);  // NULL: suggested fabric
 *   weft_pose frame;  weft_runtime_rest_frame(rt, &frame);                        // stand the frame where it was bound
 *   weft_runtime_set_frame(rt, &frame);
 *   for (;;) {
 *       weft_runtime_set_holder(rt, pin, &holder_pose_in_frame);                  // identity: held particles at rest
 *       weft_runtime_step(rt, 1.0 / 60.0);
 *       weft_runtime_positions(rt, xyz);                                          // 3 doubles a particle, in the frame
 *       weft_runtime_render_positions(rt, mesh_xyz);                              // a sheet: its render mesh, deformed
 *   }
 *   weft_runtime_free(rt);
 *
 * Every function that can fail returns WEFT_OK (0) or a non-null pointer on success, and on failure
 * a negative weft_status (or NULL with a message in `error`). Nothing a caller passes can poison the
 * cloth: a placement, collider or dt that is not finite (or a rotation that is no unit quaternion) is
 * refused and changes nothing, and a step that would leave a position not finite is undone and
 * returns WEFT_ERROR_NON_FINITE with the cloth as it was before it. Stepping is the code weft's own
 * validation runs (lib/solver/checked_step.h): `weft validate PROXY --scenario hang --positions --model none`
 * prints what examples/runtime/run_proxy.c computes, to the last bit. A weft_runtime is not
 * thread-safe; several may run on several threads. */
#ifndef WEFT_RUNTIME_H
#define WEFT_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct weft_runtime weft_runtime;

/** What a call did. Negative values are errors; nothing changed unless the name says otherwise. */
typedef enum weft_status {
    WEFT_OK = 0,
    WEFT_ERROR_ARGUMENT = -1,      /**< a null runtime or pointer, an index past the last pin or particle */
    WEFT_ERROR_DT = -2,            /**< dt not finite, <= 0, or longer than one second */
    WEFT_ERROR_FRAME = -3,         /**< a frame placement not finite, or its rotation not a unit quaternion */
    WEFT_ERROR_HOLDER = -4,        /**< a holder placement not finite, or its rotation not a unit quaternion */
    WEFT_ERROR_COLLIDER = -5,      /**< a collider not finite, or a negative radius */
    WEFT_ERROR_NON_FINITE = -6,    /**< the step would have left a position or velocity not finite: it was undone */
    WEFT_ERROR_VELOCITY = -7,      /**< a velocity not finite */
    WEFT_ERROR_MEMORY = -8         /**< out of memory part way through a step: undone */
} weft_status;

/** The status's name ("WEFT_OK", "WEFT_ERROR_DT", ...), a static string. */
const char* weft_status_name(int status);

/** A rigid placement x -> rotation*x + position; metres; unit quaternion x, y, z, w. */
typedef struct weft_pose {
    double position[3];
    double rotation[4];
} weft_pose;

/** Decodes a .clothproxy from `size` bytes (hostile input is refused, never read out of bounds) and
 *  builds the solver under `fabric` (a library name: silk, cotton, denim, leather, rope, chain, hair,
 *  strand, panel; NULL = the proxy's suggested fabric). NULL on failure, with the reason in `error`. */
weft_runtime* weft_runtime_load(const uint8_t* bytes, size_t size, const char* fabric, char* error, size_t error_size);
void weft_runtime_free(weft_runtime* runtime);

uint32_t weft_runtime_particle_count(const weft_runtime* runtime);
uint32_t weft_runtime_pin_count(const weft_runtime* runtime);
/** The node holding pin `pin` (NULL past the last pin); the frame's node ("" = the model's root). */
const char* weft_runtime_pin_holder(const weft_runtime* runtime, uint32_t pin);
const char* weft_runtime_frame_node(const weft_runtime* runtime);
/** Rig proxies: particle `particle`'s joint node name ("" for a tip particle or a sheet). */
const char* weft_runtime_joint_name(const weft_runtime* runtime, uint32_t particle);
/** The frame's rest placement in model space (its node where the proxy was bound, scale removed). */
void weft_runtime_rest_frame(const weft_runtime* runtime, weft_pose* out);

/** 1 when the fabric's pose rows hold the cloth in its bind pose (a rig under strand or panel: it
 *  swings back there), else 0. weft validate's hang starts such a cloth kicked sideways (1 m/s along
 *  the world's +x), since hung from rest it would only stay there. */
int weft_runtime_holds_pose(const weft_runtime* runtime);

/** The frame's placement in the world at the end of the next step. WEFT_ERROR_FRAME: not set. */
int weft_runtime_set_frame(weft_runtime* runtime, const weft_pose* frame);
/** Pin `pin`'s holder placement in the frame at the end of the next step (identity = at rest).
 *  WEFT_ERROR_HOLDER: not set. */
int weft_runtime_set_holder(weft_runtime* runtime, uint32_t pin, const weft_pose* holder);
/** Sphere colliders in the frame, 4 doubles each: centre x, y, z and radius (metres); replaces the
 *  spheres. WEFT_ERROR_COLLIDER: the set is left as it was. */
int weft_runtime_set_colliders(weft_runtime* runtime, const double* spheres, uint32_t count);
/** Capsule colliders in the frame, 7 doubles each: one end's x, y, z, the other's, and the radius
 *  (metres); replaces the capsules (the body colliders the sidecar lists are capsules and spheres).
 *  WEFT_ERROR_COLLIDER: the set is left as it was. */
int weft_runtime_set_capsules(weft_runtime* runtime, const double* capsules, uint32_t count);
/** Adds a velocity (m/s, world axes, turned into the frame by the frame placement last set) to every
 *  free particle, and wakes the cloth: a kick. WEFT_ERROR_VELOCITY: nothing changed. */
int weft_runtime_add_velocity(weft_runtime* runtime, const double velocity[3]);
/** One step of `dt` seconds, 0 < dt <= 1. WEFT_ERROR_DT: not taken; WEFT_ERROR_NON_FINITE: taken
 *  and undone, the cloth as it was before. */
int weft_runtime_step(weft_runtime* runtime, double dt);

/** Every particle's position in the frame, 3 doubles each, particle order, into `xyz`. */
void weft_runtime_positions(const weft_runtime* runtime, double* xyz);
/** Sheet proxies: the render mesh bound to the particles (docs/proxy.md#binding): its vertices (the
 *  garment's source vertices, its meshes concatenated in the proxy's order; 0 for a rig) and its
 *  triangles (3 vertex indices each). */
uint32_t weft_runtime_render_vertex_count(const weft_runtime* runtime);
uint32_t weft_runtime_render_triangle_count(const weft_runtime* runtime);
int weft_runtime_render_triangles(const weft_runtime* runtime, uint32_t* indices);
/** Every render vertex placed from the particles' current positions, 3 doubles each, in the frame:
 *  its proxy triangle's corners weighted by its barycentric coordinates, plus its offset along the
 *  particle normals interpolated there. A vertex with no binding is placed at the frame's origin. */
int weft_runtime_render_positions(const weft_runtime* runtime, double* xyz);
/** Rig proxies: a joint particle's placement in the frame: its position, and as rotation the turn
 *  from its bind: the shortest arc taking its rest segment to its child particle onto the current one
 *  (identity for a particle with no child). A joint's frame-space rotation is this turn times its
 *  bind rotation in the frame. -1 past the last particle. */
int weft_runtime_joint_transform(const weft_runtime* runtime, uint32_t particle, weft_pose* out);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_RUNTIME_H */
