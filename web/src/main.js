// The page weft writes for one model (lib/outputs/view_page.h writes the data, schema weft.view/1):
// the model at rest, each proxy over it, every validation scenario played back from its recorded
// frames, and the per-step figures plotted against the gates' limits. Everything is in the page.
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { decodeIndices, decodePositions } from './decode.js';
import { drawPlot } from './plot.js';

const data = JSON.parse(document.getElementById('weft-data').textContent);
const state = { ready: false, scenario: '', step: 0, lastStep: 0, frameIndex: 0, frameCount: 0, playing: false,
                speed: 1, errors: [] };
window.weftView = state;

// ---- layout ---------------------------------------------------------------------------------------
document.body.insertAdjacentHTML('beforeend', `
<div id="weft-layout" style="display:grid;grid-template-columns:1fr 340px;height:100vh">
  <div style="position:relative;min-width:0">
    <canvas id="weft-canvas" style="width:100%;height:100%;display:block"></canvas>
    <div id="weft-title" style="position:absolute;left:12px;top:8px;pointer-events:none;color:#e6e6e3"></div>
  </div>
  <aside id="weft-panel" style="overflow:auto;padding:10px 12px;border-left:1px solid #8884">
    <label>proxy <select id="weft-proxy"></select></label><br>
    <label>colour by <select id="weft-colour">
      <option value="colour">colour class</option><option value="d_geo">d_geo</option><option value="mass">mass</option>
    </select></label>
    <label><input type="checkbox" id="weft-mesh" checked> model</label><br>
    <div id="weft-legend" class="muted" style="font-size:12px;margin:4px 0"></div>
    <hr>
    <label>scenario <select id="weft-scenario"></select></label>
    <button id="weft-play">play</button>
    <input id="weft-slider" type="range" min="0" max="0" value="0" style="width:100%">
    <div id="weft-step" class="muted"></div>
    <div id="weft-gates" style="font-size:12px"></div>
    <div id="weft-plots"></div>
    <hr>
    <div id="weft-issues" style="font-size:12px"></div>
  </aside>
</div>`);
const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
$('weft-title').innerHTML = `<h1>${esc(data.model)}</h1><div class="muted">${esc(data.status || '')}
  ${data.proxies.length} prox${data.proxies.length === 1 ? 'y' : 'ies'}</div>`;

// ---- three.js scene -------------------------------------------------------------------------------
const canvas = $('weft-canvas');
const renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
renderer.setPixelRatio(1);
const scene = new THREE.Scene();
scene.background = new THREE.Color(0x202226);
const camera = new THREE.PerspectiveCamera(40, 1, 0.01, 1000);
const controls = new OrbitControls(camera, canvas);
scene.add(new THREE.HemisphereLight(0xffffff, 0x444450, 2.2));
const sun = new THREE.DirectionalLight(0xffffff, 1.5);
sun.position.set(2, 4, 3);
scene.add(sun);

const box = new THREE.Box3();
let meshObject = null;
if (data.mesh && data.mesh.vertices > 0) {
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.BufferAttribute(decodePositions(data.mesh.positions, data.mesh.bounds), 3));
  g.setIndex(new THREE.BufferAttribute(decodeIndices(data.mesh.indices), 1));
  g.computeVertexNormals();
  meshObject = new THREE.Mesh(g, new THREE.MeshLambertMaterial({ color: 0x9aa3ad, transparent: true, opacity: 0.35,
                                                                  depthWrite: false, side: THREE.DoubleSide }));
  scene.add(meshObject);
  g.computeBoundingBox();
  box.union(g.boundingBox);
}
for (const c of data.colliders || []) {
  const material = new THREE.MeshBasicMaterial({ color: 0x66bb6a, wireframe: true, transparent: true, opacity: 0.5 });
  const head = new THREE.Vector3().fromArray(c.centre);
  const axis = c.tail ? new THREE.Vector3().fromArray(c.tail).sub(head) : new THREE.Vector3();
  // A capsule (head end "centre", other end "tail") stands along its axis, centred between its ends.
  const s = new THREE.Mesh(c.tail ? new THREE.CapsuleGeometry(c.radius, axis.length(), 6, 16)
                                  : new THREE.SphereGeometry(c.radius, 16, 10), material);
  s.position.copy(head).addScaledVector(axis, 0.5);
  if (axis.lengthSq() > 0) s.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), axis.clone().normalize());
  scene.add(s);
}

// Per proxy: one position buffer shared by its particles, edges and skips, so a frame moves them all.
const proxies = data.proxies.map((p, index) => {
  const rest = decodePositions(p.rest, p.bounds);
  const position = new THREE.BufferAttribute(rest.slice(), 3);
  position.setUsage(THREE.DynamicDrawUsage);
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', position);
  const colours = new THREE.BufferAttribute(new Float32Array(p.particles * 3), 3);
  geometry.setAttribute('color', colours);
  const group = new THREE.Group();
  const points = new THREE.Points(geometry, new THREE.PointsMaterial({ size: 6, sizeAttenuation: false, vertexColors: true }));
  group.add(points);
  const edges = decodeIndices(p.edges);
  if (edges.length) {
    const eg = new THREE.BufferGeometry();
    eg.setAttribute('position', position);
    eg.setIndex(new THREE.BufferAttribute(edges, 1));
    group.add(new THREE.LineSegments(eg, new THREE.LineBasicMaterial({ color: 0x64b5f6 })));
  }
  const skips = decodeIndices(p.skips);
  if (skips.length) {
    const sg = new THREE.BufferGeometry();
    sg.setAttribute('position', position);
    sg.setIndex(new THREE.BufferAttribute(skips, 1));
    group.add(new THREE.LineSegments(sg, new THREE.LineBasicMaterial({ color: 0xffb74d, transparent: true, opacity: 0.45 })));
  }
  // Pins: the held particles ringed in red, each holder a red diamond with a line to what it holds.
  const held = [];
  const holderLines = [];
  for (const pin of p.pins) {
    for (const i of pin.particles) held.push(i);
    if (pin.holder_position) {
      const d = new THREE.Mesh(new THREE.OctahedronGeometry(0.015), new THREE.MeshBasicMaterial({ color: 0xef5350 }));
      d.position.fromArray(pin.holder_position);
      group.add(d);
      for (const i of pin.particles.slice(0, 64)) holderLines.push(pin.holder_position, i);
    }
  }
  if (holderLines.length) {  // a faint line from each holder to (up to 64 of) the particles it holds
    const xyz = new Float32Array(holderLines.length / 2 * 6);
    for (let k = 0; k < holderLines.length; k += 2) {
      const h = holderLines[k], i = holderLines[k + 1], o = k * 3;
      xyz.set(h, o);
      xyz.set(rest.subarray(3 * i, 3 * i + 3), o + 3);
    }
    const lg = new THREE.BufferGeometry();
    lg.setAttribute('position', new THREE.BufferAttribute(xyz, 3));
    group.add(new THREE.LineSegments(lg, new THREE.LineBasicMaterial({ color: 0xef5350, transparent: true, opacity: 0.3 })));
  }
  const heldGeometry = new THREE.BufferGeometry();
  heldGeometry.setAttribute('position', position);
  heldGeometry.setIndex(held);
  group.add(new THREE.Points(heldGeometry, new THREE.PointsMaterial({ size: 11, sizeAttenuation: false, color: 0xef5350,
                                                                       transparent: true, opacity: 0.8 })));
  // Chain tips: free particles at the end of one link only.
  const degree = new Uint32Array(p.particles);
  for (let k = 0; k < edges.length; ++k) degree[edges[k]]++;
  const tips = [];
  for (let i = 0; i < p.particles; ++i) if (p.kind === 'rig' && degree[i] === 1 && p.mass[i] > 0) tips.push(i);
  const tipGeometry = new THREE.BufferGeometry();
  tipGeometry.setAttribute('position', position);
  tipGeometry.setIndex(tips);
  group.add(new THREE.Points(tipGeometry, new THREE.PointsMaterial({ size: 10, sizeAttenuation: false, color: 0xfff176 })));
  scene.add(group);
  const b = new THREE.Box3().setFromBufferAttribute(position);
  box.union(b);
  return { p, index, rest, position, colours, group, scenarios: new Map(p.scenarios.map((s) => [s.scenario, s])), frames: new Map() };
});

// ---- colours --------------------------------------------------------------------------------------
function ramp(t) {  // dark blue -> teal -> yellow
  const c = new THREE.Color();
  c.setHSL(0.66 - 0.5 * Math.min(Math.max(t, 0), 1), 0.85, 0.35 + 0.3 * t);
  return c;
}
function colourProxies() {
  const by = $('weft-colour').value;
  let legend = '';
  for (const x of proxies) {
    const { p, colours } = x;
    const values = by === 'colour' ? Array.from(decodeIndices(p.colour)) : by === 'd_geo' ? p.d_geo : p.mass;
    let hi = 0;
    for (const v of values) hi = Math.max(hi, v);
    for (let i = 0; i < p.particles; ++i) {
      let c;
      if (by === 'colour') c = new THREE.Color().setHSL((values[i] * 0.618034) % 1, 0.75, 0.6);
      else if (values[i] < 0) c = new THREE.Color(0x888888);  // d_geo: nothing holds it
      else c = ramp(hi > 0 ? values[i] / hi : 0);
      colours.setXYZ(i, c.r, c.g, c.b);
    }
    colours.needsUpdate = true;
    if (by === 'colour') legend = `${p.colours} colours (each a range the solver sweeps at once)`;
    else legend = `${by === 'd_geo' ? 'd_geo, m' : 'mass, kg'}: blue 0 → yellow ${hi.toPrecision(3)}${by === 'd_geo' ? ', grey: unheld' : ', held: 0'}`;
  }
  $('weft-legend').textContent = legend + '. Red: pins and holders; yellow: chain tips.';
}
$('weft-colour').addEventListener('change', colourProxies);
$('weft-mesh').addEventListener('change', () => { if (meshObject) meshObject.visible = $('weft-mesh').checked; });

// ---- proxy and scenario choice --------------------------------------------------------------------
$('weft-proxy').innerHTML = '<option value="-1">all</option>' +
  proxies.map((x) => `<option value="${x.index}">${esc(x.p.garment)} (${x.p.kind}, ${x.p.particles})</option>`).join('');
const scenarioNames = [];
for (const x of proxies) for (const s of x.p.scenarios) if (!scenarioNames.includes(s.scenario)) scenarioNames.push(s.scenario);
$('weft-scenario').innerHTML = '<option value="">at rest</option>' + scenarioNames.map((n) => `<option>${n}</option>`).join('');
function focusedProxies() {
  const v = Number($('weft-proxy').value);
  return v < 0 ? proxies : proxies.filter((x) => x.index === v);
}
$('weft-proxy').addEventListener('change', () => {
  for (const x of proxies) x.group.visible = focusedProxies().includes(x);
  showStep(state.step);
});

function framesOf(x, name) {
  if (x.frames.has(name)) return x.frames.get(name);
  const s = x.scenarios.get(name);
  let f = null;
  if (s && s.frames) f = { steps: s.frames.steps, positions: decodePositions(s.frames.positions, s.frames.bounds) };
  x.frames.set(name, f);
  return f;
}

function setScenario(name) {
  state.scenario = name;
  $('weft-scenario').value = name;
  state.playing = false;
  $('weft-play').textContent = 'play';
  let last = 0;
  for (const x of proxies) {
    const s = x.scenarios.get(name);
    if (s) last = Math.max(last, s.steps);
  }
  state.lastStep = last;
  $('weft-slider').max = String(last);
  showStep(0);
}
state.setScenario = setScenario;
$('weft-scenario').addEventListener('change', () => setScenario($('weft-scenario').value));
$('weft-slider').addEventListener('input', () => { state.playing = false; showStep(Number($('weft-slider').value)); });
$('weft-play').addEventListener('click', () => {
  if (!state.scenario) return;
  if (state.step >= state.lastStep) showStep(0);
  state.playing = !state.playing;
  $('weft-play').textContent = state.playing ? 'pause' : 'play';
});
state.play = (speed = 1) => {
  if (!state.scenario && scenarioNames.length) setScenario(scenarioNames[0]);
  state.speed = speed;
  showStep(0);
  state.playing = true;
};

function showStep(step) {
  state.step = Math.min(Math.max(0, Math.round(step)), state.lastStep);
  $('weft-slider').value = String(state.step);
  let frameIndex = 0, frameCount = 0;
  for (const x of proxies) {
    const f = state.scenario ? framesOf(x, state.scenario) : null;
    if (!f) {
      x.position.array.set(x.rest);
    } else {
      // The last recorded frame at or before the step.
      let k = 0;
      while (k + 1 < f.steps.length && f.steps[k + 1] <= state.step) ++k;
      const n = x.p.particles * 3;
      x.position.array.set(f.positions.subarray(k * n, (k + 1) * n));
      frameIndex = Math.max(frameIndex, k);
      frameCount = Math.max(frameCount, f.steps.length);
    }
    x.position.needsUpdate = true;
  }
  state.frameIndex = frameIndex;
  state.frameCount = frameCount;
  document.body.dataset.frame = String(frameIndex);
  if (frameCount > 0 && frameIndex === frameCount - 1) document.body.dataset.lastFrame = state.scenario;
  const seconds = (state.step * data.dt).toFixed(2);
  $('weft-step').textContent = state.scenario
    ? `step ${state.step} / ${state.lastStep} (${seconds} s), frame ${frameIndex + 1} / ${frameCount}`
    : 'rest pose';
  drawPlots();
}

// ---- plots ----------------------------------------------------------------------------------------
function drawPlots() {
  const x = focusedProxies().find((y) => y.scenarios.has(state.scenario)) || null;
  const s = x ? x.scenarios.get(state.scenario) : null;
  const plots = $('weft-plots');
  const gates = $('weft-gates');
  if (!s || !s.figures) {
    plots.innerHTML = '';
    gates.innerHTML = '';
    return;
  }
  gates.innerHTML = `<b>${esc(x.p.garment)}</b> (${esc(x.p.fabric || '')}): ` + s.gates.map((g) =>
    `<span class="${g.passed ? 'good' : 'bad'}" title="${esc(g.message)}">${g.gate}${g.passed ? ' ✓' : ' ✗ step ' + (g.step ?? '?')}</span>`).join(', ');
  const failing = (code) => s.gates.find((g) => g.gate === code && !g.passed);
  const strainFail = failing('STRAIN');
  const anyFail = s.gates.find((g) => !g.passed);
  const specs = [
    { key: 'max_speed', label: 'speed, m/s', fail: anyFail && anyFail.gate === 'NON_FINITE' ? anyFail : null },
    { key: 'max_strain', label: 'strain (length / rest)', limit: data.limits.max_strain, fail: strainFail },
    { key: 'total_energy', label: 'energy, J (total; kinetic dashed)', second: 'kinetic_energy',
      fail: failing('ENERGY_RISING') || failing('NEVER_SLEPT') },
  ];
  if (s.figures.penetration) specs.push({ key: 'penetration', label: 'penetration, m', fail: failing('PENETRATION') });
  if (plots.children.length !== specs.length) {
    plots.innerHTML = specs.map((p) => `<div class="muted" style="font-size:12px;margin-top:6px">${p.label}</div>
      <canvas data-key="${p.key}" width="310" height="90" style="width:310px;height:90px"></canvas>`).join('');
  }
  const canvases = plots.querySelectorAll('canvas');
  specs.forEach((spec, k) => drawPlot(canvases[k], s.figures[spec.key], {
    second: spec.second ? s.figures[spec.second] : null, limit: spec.limit, failStep: spec.fail ? spec.fail.step : null,
    cursor: state.step, sleepStep: s.sleep_step,
  }));
}

// ---- issues ---------------------------------------------------------------------------------------
{
  const counts = new Map();
  for (const i of data.issues) counts.set(i.code, (counts.get(i.code) || 0) + 1);
  $('weft-issues').innerHTML = data.issues.length
    ? '<b>issues</b><br>' + [...counts].map(([code, n]) => {
      const first = data.issues.find((i) => i.code === code);
      return `<span class="${first.severity === 'error' ? 'bad' : 'muted'}">${esc(code)}${n > 1 ? ' ×' + n : ''}</span>: ${esc(first.message)}`;
    }).join('<br>')
    : '<span class="good">no issues</span>';
}

// ---- camera and the loop --------------------------------------------------------------------------
function frameCamera() {
  const centre = box.isEmpty() ? new THREE.Vector3() : box.getCenter(new THREE.Vector3());
  const size = box.isEmpty() ? 1 : box.getSize(new THREE.Vector3()).length();
  camera.position.copy(centre).add(new THREE.Vector3(0.35, 0.25, 1).normalize().multiplyScalar(size * 1.5));
  camera.near = size / 1000;
  camera.far = size * 100;
  camera.updateProjectionMatrix();
  controls.target.copy(centre);
  controls.update();
}
function resize() {
  const w = canvas.clientWidth, h = canvas.clientHeight;
  if (canvas.width !== w || canvas.height !== h) {
    renderer.setSize(w, h, false);
    camera.aspect = w / Math.max(h, 1);
    camera.updateProjectionMatrix();
  }
}
let last = performance.now();
let carry = 0;
function loop(now) {
  resize();
  if (state.playing) {
    carry += ((now - last) / 1000 / data.dt) * state.speed;
    const whole = Math.floor(carry);
    carry -= whole;
    if (whole > 0) showStep(state.step + whole);
    if (state.step >= state.lastStep) {
      state.playing = false;
      $('weft-play').textContent = 'play';
    }
  }
  last = now;
  controls.update();
  renderer.render(scene, camera);
  requestAnimationFrame(loop);
}
colourProxies();
frameCamera();
setScenario('');
resize();
renderer.render(scene, camera);
state.ready = true;
document.body.dataset.ready = 'true';
requestAnimationFrame(loop);
