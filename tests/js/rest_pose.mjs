// three.js's view of a model at rest: each file loaded with GLTFLoader (images dropped: Node has no
// decoder), the scene at its default pose, and every mesh vertex placed as three.js draws it
// (Mesh.getVertexPosition: morph targets, then SkinnedMesh.applyBoneTransform, then the mesh's world
// matrix). Compares files in pairs, vertex for vertex, as tests/rest/gltf_rest.py does.
//
//   node rest_pose.mjs A.glb B.glb [A2 B2 ...]
//
// One JSON object per pair and line: {a, b, vertices, largest (metres), where, "over_0.1mm"} or {a, b, error}.
import { readFileSync } from 'node:fs';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';

globalThis.self ??= globalThis;

/// The file as a GLB with its images, textures and samplers removed (materials keep their factors).
function withoutImages(path) {
  const bytes = readFileSync(path);
  let doc, bin = null;
  if (bytes.readUInt32LE(0) === 0x46546c67) {
    const jsonLength = bytes.readUInt32LE(12);
    doc = JSON.parse(bytes.subarray(20, 20 + jsonLength).toString('utf8'));
    if (20 + jsonLength < bytes.length) bin = bytes.subarray(28 + jsonLength, 28 + jsonLength + bytes.readUInt32LE(20 + jsonLength));
  } else {
    // A .gltf: every buffer (data URI or file beside it) into the one binary chunk, so the loader
    // fetches nothing.
    doc = JSON.parse(bytes.toString('utf8'));
    const dir = path.replace(/[^/]*$/, '');
    const parts = [], offsets = [];
    let at = 0;
    for (const b of doc.buffers ?? []) {
      const data = b.uri.startsWith('data:') ? Buffer.from(b.uri.slice(b.uri.indexOf(',') + 1), 'base64')
                                             : readFileSync(dir + decodeURIComponent(b.uri));
      offsets.push(at);
      const pad = (8 - (data.length % 8)) % 8;
      parts.push(data, Buffer.alloc(pad));
      at += data.length + pad;
    }
    bin = Buffer.concat(parts);
    for (const v of doc.bufferViews ?? []) { v.byteOffset = (v.byteOffset ?? 0) + offsets[v.buffer ?? 0]; v.buffer = 0; }
    if (doc.buffers?.length) doc.buffers = [{ byteLength: bin.length }];
  }
  delete doc.images; delete doc.textures; delete doc.samplers;
  const strip = (o) => {
    if (Array.isArray(o)) { o.forEach(strip); return; }
    if (o && typeof o === 'object')
      for (const k of Object.keys(o)) {
        if (/texture$/i.test(k) && o[k] && typeof o[k] === 'object' && 'index' in o[k]) delete o[k];
        else strip(o[k]);
      }
  };
  strip(doc.materials);
  let text = JSON.stringify(doc);
  while (text.length % 4) text += ' ';
  const json = Buffer.from(text, 'utf8');
  const binPadded = bin ? Buffer.concat([bin, Buffer.alloc((4 - (bin.length % 4)) % 4)]) : null;
  const total = 12 + 8 + json.length + (binPadded ? 8 + binPadded.length : 0);
  const out = Buffer.alloc(total);
  out.writeUInt32LE(0x46546c67, 0); out.writeUInt32LE(2, 4); out.writeUInt32LE(total, 8);
  out.writeUInt32LE(json.length, 12); out.writeUInt32LE(0x4e4f534a, 16); json.copy(out, 20);
  if (binPadded) {
    out.writeUInt32LE(binPadded.length, 20 + json.length); out.writeUInt32LE(0x004e4942, 24 + json.length);
    binPadded.copy(out, 28 + json.length);
  }
  return out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength);
}

async function posed(path) {
  const loader = new GLTFLoader();
  const warn = console.warn;
  console.warn = () => {};
  let gltf;
  try {
    gltf = await loader.parseAsync(withoutImages(path), '');
  } finally {
    console.warn = warn;
  }
  gltf.scene.updateMatrixWorld(true);
  const meshes = [];
  gltf.scene.traverse((o) => {
    if (!o.isMesh) return;
    if (o.isSkinnedMesh) o.skeleton.update();
    const p = o.geometry.attributes.position;
    const out = new Float64Array(p.count * 3);
    const v = new THREE.Vector3();
    for (let i = 0; i < p.count; ++i) {
      o.getVertexPosition(i, v);
      v.applyMatrix4(o.matrixWorld);
      out[3 * i] = v.x; out[3 * i + 1] = v.y; out[3 * i + 2] = v.z;
    }
    meshes.push({ name: o.name, positions: out });
  });
  return meshes;
}

async function compare(a, b) {
  const [ma, mb] = [await posed(a), await posed(b)];
  if (ma.length !== mb.length) return { error: `${ma.length} meshes against ${mb.length}` };
  let vertices = 0, largest = 0, where = null, over = 0;
  for (let m = 0; m < ma.length; ++m) {
    const [pa, pb] = [ma[m].positions, mb[m].positions];
    if (pa.length !== pb.length) return { error: `mesh ${m} '${ma[m].name}': ${pa.length / 3} vertices against ${pb.length / 3}` };
    for (let i = 0; i < pa.length; i += 3) {
      const d = Math.hypot(pa[i] - pb[i], pa[i + 1] - pb[i + 1], pa[i + 2] - pb[i + 2]);
      ++vertices;
      if (d > 1e-4) ++over;
      if (d > largest) { largest = d; where = { mesh: ma[m].name, vertex: i / 3 }; }
    }
  }
  return { vertices, largest, where, 'over_0.1mm': over };
}

const args = process.argv.slice(2);
for (let i = 0; i + 1 < args.length; i += 2) {
  let result;
  try {
    result = await compare(args[i], args[i + 1]);
  } catch (e) {
    result = { error: String(e && e.stack || e) };
  }
  process.stdout.write(JSON.stringify({ a: args[i], b: args[i + 1], ...result }) + '\n');
}
