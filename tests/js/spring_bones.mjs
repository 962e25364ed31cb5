// Loads models with three-vrm (npm @pixiv/three-vrm: VRMLoaderPlugin for .vrm, VRMSpringBoneLoaderPlugin
// otherwise) and prints, as JSON on standard output, one report per file: its springs with their
// joints and colliders, and a kick: every joint's tail is given a sideways speed, the spring update
// runs at 60 Hz, and the first spring's last tail is followed (how far it swings, when it settles).
//
//   node spring_bones.mjs [--kick SPEED] FILE...
import { readFileSync } from 'node:fs';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { VRMLoaderPlugin, VRMSpringBoneLoaderPlugin } from '@pixiv/three-vrm';

// Textures are irrelevant here and Node has no image decoder: images are dropped on the way in.
globalThis.self ??= globalThis;
const silence = console.warn;

const args = process.argv.slice(2);
let kick = 1.0;
if (args[0] === '--kick') { kick = Number(args[1]); args.splice(0, 2); }

async function load(path) {
  const bytes = readFileSync(path);
  const loader = new GLTFLoader();
  const vrm = path.toLowerCase().endsWith('.vrm');
  loader.register((parser) => (vrm ? new VRMLoaderPlugin(parser) : new VRMSpringBoneLoaderPlugin(parser)));
  console.warn = () => {};
  console.error = () => {};
  try {
    const ab = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    return await loader.parseAsync(stripImages(ab), '');
  } finally {
    console.warn = silence;
  }
}

/// The GLB with its images and textures removed (materials keep their factors).
function stripImages(ab) {
  const view = new DataView(ab);
  const jsonLength = view.getUint32(12, true);
  const doc = JSON.parse(new TextDecoder().decode(new Uint8Array(ab, 20, jsonLength)));
  delete doc.images; delete doc.textures; delete doc.samplers;
  const strip = (o) => {
    if (Array.isArray(o)) { o.forEach(strip); return; }
    if (o && typeof o === 'object')
      for (const k of Object.keys(o)) {
        if (/texture$/i.test(k) && o[k] && typeof o[k] === 'object' && 'index' in o[k]) delete o[k];
        else if (k === 'textureProperties') o[k] = {};
        else strip(o[k]);
      }
  };
  strip(doc.materials);
  if (doc.extensions?.VRM?.materialProperties) strip(doc.extensions.VRM.materialProperties);
  let text = JSON.stringify(doc);
  while (text.length % 4) text += ' ';
  const json = new TextEncoder().encode(text);
  const rest = new Uint8Array(ab, 20 + jsonLength);
  const out = new Uint8Array(20 + json.length + rest.length);
  const ov = new DataView(out.buffer);
  ov.setUint32(0, 0x46546c67, true); ov.setUint32(4, 2, true); ov.setUint32(8, out.length, true);
  ov.setUint32(12, json.length, true); ov.setUint32(16, 0x4e4f534a, true);
  out.set(json, 20); out.set(rest, 20 + json.length);
  return out.buffer;
}

const reports = [];
for (const path of args) {
  const report = { file: path };
  try {
    const gltf = await load(path);
    const manager = gltf.userData.vrm?.springBoneManager ?? gltf.userData.vrmSpringBoneManager;
    report.vrm = Boolean(gltf.userData.vrm);
    report.vrm_meta = gltf.userData.vrm?.meta?.metaVersion ?? null;
    report.humanoid_bones = gltf.userData.vrm?.humanoid ? Object.keys(gltf.userData.vrm.humanoid.humanBones).length : 0;
    if (!manager) throw new Error('three-vrm found no spring bones');
    const scene = gltf.scene;
    scene.updateMatrixWorld(true);
    manager.setInitState();
    // Springs: VRM 1.0 names them; VRM 0.x groups are chains from a root. Group joints by root chain.
    const joints = [...manager.joints];
    report.joints = joints.map((j) => ({
      bone: j.bone.name, child: j.child?.name ?? null, colliders: j.colliderGroups.reduce((n, g) => n + g.colliders.length, 0),
      stiffness: j.settings.stiffness, drag: j.settings.dragForce, hit_radius: j.settings.hitRadius,
      gravity_power: j.settings.gravityPower, gravity_dir: j.settings.gravityDir.toArray(),
    }));
    // At rest, untouched: how far any tail moves in two seconds (a collider overlapping a joint's hit
    // sphere at rest would push it; gravityPower 0 and stiffness leave the rest the equilibrium).
    const restTails = joints.map((j) => j._currentTail.clone());
    for (let frame = 0; frame < 120; ++frame) { manager.update(1 / 60); scene.updateMatrixWorld(true); }
    joints.forEach((j, k) => { report.joints[k].rest_drift = j._currentTail.distanceTo(restTails[k]); });
    manager.reset();
    scene.updateMatrixWorld(true);
    // The kick: the chain of the first joint, followed to its last tail.
    const chain = [joints[0]];
    for (;;) {
      const next = joints.find((j) => j.bone === chain[chain.length - 1].child);
      if (!next) break;
      chain.push(next);
    }
    const last = chain[chain.length - 1];
    report.kicked = chain.map((j) => j.bone.name);
    const h = 1 / 60;
    const side = new THREE.Vector3(kick * h, 0, 0);
    for (const j of joints) j._prevTail.sub(side);  // every tail moving sideways at `kick` m/s
    const tail = () => last._currentTail.clone();
    const rest = tail();
    const distances = [];
    for (let frame = 0; frame < 600; ++frame) {
      manager.update(h);
      scene.updateMatrixWorld(true);
      distances.push(tail().distanceTo(rest));
    }
    report.rest_tail = rest.toArray();
    report.distances = distances;
    report.finite = distances.every(Number.isFinite);
  } catch (e) {
    report.error = String(e && e.stack || e);
  }
  reports.push(report);
}
process.stdout.write(JSON.stringify(reports) + '\n');
