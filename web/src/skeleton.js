// The model moved as validation moved it (docs/view.md#keys): a clip's keys posed at any step as
// lib/validate/clip_motion.h plays a clip (a blend from the bind pose, the clip, its last frame
// held), a rig's chain joints posed from its particles as the solver moved them (the rule of
// lib/validate/model/rig_validate.h), and the mesh skinned over those motions. A motion is a rigid
// placement from the bind pose: seven numbers a node, rotation (x, y, z, w) then translation.
import { decodePositions, decodeUnit16 } from './decode.js';

export const CLIP_BLEND_STEPS = 30;

export function identityMotions(nodes) {
  const m = new Float32Array(nodes * 7);
  for (let n = 0; n < nodes; ++n) m[n * 7 + 3] = 1;
  return m;
}

function slerpInto(out, o, a, ao, b, bo, u) {
  let bx = b[bo], by = b[bo + 1], bz = b[bo + 2], bw = b[bo + 3];
  let c = a[ao] * bx + a[ao + 1] * by + a[ao + 2] * bz + a[ao + 3] * bw;
  if (c < 0) { bx = -bx; by = -by; bz = -bz; bw = -bw; c = -c; }
  let s0 = 1 - u, s1 = u;
  if (c < 0.9995) {
    const angle = Math.acos(Math.min(c, 1)), sin = Math.sin(angle);
    s0 = Math.sin((1 - u) * angle) / sin;
    s1 = Math.sin(u * angle) / sin;
  }
  let x = s0 * a[ao] + s1 * bx, y = s0 * a[ao + 1] + s1 * by, z = s0 * a[ao + 2] + s1 * bz, w = s0 * a[ao + 3] + s1 * bw;
  const len = Math.hypot(x, y, z, w) || 1;
  out[o] = x / len; out[o + 1] = y / len; out[o + 2] = z / len; out[o + 3] = w / len;
}

/// A clip's keys, decoded once: rotations and translations per key per node.
export function decodeClip(clip, nodes) {
  return {
    name: clip.name, frames: clip.frames, every: clip.every, keys: clip.keys, nodes, keyed: clip.nodes,
    rotations: decodeUnit16(clip.rotations),
    translations: decodePositions(clip.translations.positions, clip.translations.bounds),
  };
}

const IDENTITY = new Float32Array([0, 0, 0, 1]);

/// The motion of every node at 0-based `step` of the clip's run (clip_step).
export function clipMotions(c, step, out) {
  out.set(identityMotions(c.nodes));  // a chain joint is posed from its particles (poseChain), never by the clip
  const n = c.keyed.length;
  if (!c.keys) return out;
  let keyA = 0, keyB = 0, u = 0, blend = 1;
  if (step < CLIP_BLEND_STEPS) {
    blend = step / CLIP_BLEND_STEPS;
  } else {
    const f = Math.min(step - CLIP_BLEND_STEPS, c.frames - 1);
    const k = f / c.every;
    keyA = Math.min(Math.floor(k), c.keys - 1);
    keyB = Math.min(keyA + 1, c.keys - 1);
    // The last key is the clip's last frame, which may sit closer than `every` after the one before.
    const fa = keyA * c.every, fb = Math.min(keyB * c.every, c.frames - 1);
    u = fb > fa ? (f - fa) / (fb - fa) : 0;
  }
  for (let i = 0; i < n; ++i) {
    const ra = (keyA * n + i) * 4, rb = (keyB * n + i) * 4, ta = (keyA * n + i) * 3, tb = (keyB * n + i) * 3, o = c.keyed[i] * 7;
    if (blend < 1) {  // from the bind pose into the first frame
      slerpInto(out, o, IDENTITY, 0, c.rotations, ra, blend);
      for (let k = 0; k < 3; ++k) out[o + 4 + k] = blend * c.translations[ta + k];
    } else {
      slerpInto(out, o, c.rotations, ra, c.rotations, rb, u);
      for (let k = 0; k < 3; ++k) out[o + 4 + k] = c.translations[ta + k] + u * (c.translations[tb + k] - c.translations[ta + k]);
    }
  }
  return out;
}

function rotate(q, qo, x, y, z, out, o) {
  const qx = q[qo], qy = q[qo + 1], qz = q[qo + 2], qw = q[qo + 3];
  const tx = 2 * (qy * z - qz * y), ty = 2 * (qz * x - qx * z), tz = 2 * (qx * y - qy * x);
  out[o] = x + qw * tx + (qy * tz - qz * ty);
  out[o + 1] = y + qw * ty + (qz * tx - qx * tz);
  out[o + 2] = z + qw * tz + (qx * ty - qy * tx);
}

const scratch = new Float32Array(3);
/// `motions` applied to the point (x, y, z) of node `node` into out[o..o+2].
export function place(motions, node, x, y, z, out, o) {
  const m = node * 7;
  rotate(motions, m, x, y, z, scratch, 0);
  out[o] = scratch[0] + motions[m + 4];
  out[o + 1] = scratch[1] + motions[m + 5];
  out[o + 2] = scratch[2] + motions[m + 6];
}

/// The shortest turn taking unit-less direction a onto b, as a quaternion into q[o..o+3].
function turn(ax, ay, az, bx, by, bz, q, o) {
  const la = Math.hypot(ax, ay, az), lb = Math.hypot(bx, by, bz);
  if (!(la > 0) || !(lb > 0)) { q[o] = 0; q[o + 1] = 0; q[o + 2] = 0; q[o + 3] = 1; return; }
  ax /= la; ay /= la; az /= la; bx /= lb; by /= lb; bz /= lb;
  let x = ay * bz - az * by, y = az * bx - ax * bz, z = ax * by - ay * bx, w = 1 + ax * bx + ay * by + az * bz;
  if (w < 1e-8) {  // opposite: any axis across a
    if (Math.abs(ax) < 0.9) { x = 0; y = -az; z = ay; } else { x = az; y = 0; z = -ax; }
    w = 0;
  }
  const len = Math.hypot(x, y, z, w);
  q[o] = x / len; q[o + 1] = y / len; q[o + 2] = z / len; q[o + 3] = w / len;
}

/// A rig proxy's chain joints posed from its particles: translation the particle, rotation the
/// shortest turn of its bind segment (to the next particle of its chain) onto the simulated one; a
/// tip turns as the joint before it. Overrides those nodes' motions.
export function poseChain(chain, rest, now, motions) {
  const { nodes, next, prev } = chain;
  const turns = new Float32Array(nodes.length * 4);
  for (let i = 0; i < nodes.length; ++i) {
    const j = next[i];
    if (j < 0) continue;
    turn(rest[3 * j] - rest[3 * i], rest[3 * j + 1] - rest[3 * i + 1], rest[3 * j + 2] - rest[3 * i + 2],
         now[3 * j] - now[3 * i], now[3 * j + 1] - now[3 * i + 1], now[3 * j + 2] - now[3 * i + 2], turns, 4 * i);
  }
  for (let i = 0; i < nodes.length; ++i) {
    const n = nodes[i];
    if (n < 0) continue;
    const from = next[i] >= 0 ? i : prev[i];
    const m = n * 7;
    if (from >= 0) motions.set(turns.subarray(4 * from, 4 * from + 4), m);
    else motions.set(IDENTITY, m);
    rotate(motions, m, rest[3 * i], rest[3 * i + 1], rest[3 * i + 2], scratch, 0);
    motions[m + 4] = now[3 * i] - scratch[0];
    motions[m + 5] = now[3 * i + 1] - scratch[1];
    motions[m + 6] = now[3 * i + 2] - scratch[2];
  }
}

/// Linear blend skinning over rigid motions: each vertex the weighted sum of its nodes' placements.
export function skin(rest, joints, weights, motions, out) {
  const p = new Float32Array(3);
  for (let v = 0, n = rest.length / 3; v < n; ++v) {
    let x = 0, y = 0, z = 0;
    for (let k = 0; k < 4; ++k) {
      const w = weights[4 * v + k];
      if (!w) continue;
      place(motions, joints[4 * v + k], rest[3 * v], rest[3 * v + 1], rest[3 * v + 2], p, 0);
      x += w * p[0]; y += w * p[1]; z += w * p[2];
    }
    out[3 * v] = x / 255; out[3 * v + 1] = y / 255; out[3 * v + 2] = z / 255;
  }
}
