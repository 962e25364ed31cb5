// The page weft writes for one model (lib/outputs/view_page.h writes the data, schema weft.view/2,
// docs/view.md): the model at rest, each proxy over it, every scenario and clip each proxy ran with
// its verdict, played back from the recorded frames (a clip drives the model's skeleton, the cloth
// moves as the solver moved it), a timeline with each proxy's worst gate step, and the per-step
// figures plotted against the gates' limits. Everything is in the page.
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { decodeIndices, decodePositions, decodeSeries, bytesOf } from './decode.js';
import { drawPlot } from './plot.js';
import { clipMotions, decodeClip, identityMotions, place, poseChain, skin } from './skeleton.js';
import { PROXY_COLOURS, el, gateNumber, gatesTable, issuesList, scenarioTable } from './panel.js';

const data = JSON.parse(document.getElementById('weft-data').textContent);
const state = { ready: false, scenario: '', step: 0, lastStep: 0, frameIndex: 0, frameCount: 0, playing: false, speed: 1,
                worstStep: null, plotSeries: [] };
window.weftView = state;

// ---- layout ---------------------------------------------------------------------------------------
const $ = (id) => document.getElementById(id);
document.body.append(el('style', {}, `
#weft-layout { display: grid; grid-template-columns: 1fr 400px; height: 100vh; }
#weft-view { position: relative; min-width: 0; }
#weft-canvas { width: 100%; height: 100%; display: block; }
#weft-title { position: absolute; left: 12px; top: 8px; pointer-events: none; color: #e6e6e3; }
#weft-labels div { position: absolute; font-size: 12px; padding: 1px 4px; border-radius: 3px; color: #111; pointer-events: none; white-space: nowrap; }
#weft-panel { overflow: auto; padding: 8px 10px; border-left: 1px solid #8884; font-size: 13px; }
#weft-scenarios { width: 100%; font-size: 12px; } #weft-scenarios td, #weft-scenarios th { padding: 1px 4px; }
#weft-scenarios tbody tr { cursor: pointer; } #weft-scenarios tr.chosen { background: #42a5f533; }
#weft-scenario-list { max-height: 190px; overflow: auto; border: 1px solid #8883; margin: 4px 0; }
table.gates { width: 100%; font-size: 12px; } table.gates td, table.gates th { padding: 1px 4px; }
button.step { font-size: 11px; padding: 0 4px; }
#weft-timeline { width: 376px; height: 36px; display: block; cursor: pointer; color: inherit; }
#weft-plots canvas { width: 376px; height: 120px; display: block; color: inherit; }
.legend span { margin-right: 10px; white-space: nowrap; }
`));
document.body.append(el('div', { id: 'weft-layout' },
  el('div', { id: 'weft-view' }, el('canvas', { id: 'weft-canvas' }), el('div', { id: 'weft-title' }), el('div', { id: 'weft-labels' })),
  el('aside', { id: 'weft-panel' },
    el('label', {}, 'proxy ', el('select', { id: 'weft-proxy' })), ' ',
    el('label', {}, 'colour by ', el('select', { id: 'weft-colour' },
      el('option', { value: 'proxy' }, 'proxy'), el('option', { value: 'colour' }, 'colour class'),
      el('option', { value: 'd_geo' }, 'd_geo'), el('option', { value: 'mass' }, 'mass'))), ' ',
    el('label', {}, el('input', { type: 'checkbox', id: 'weft-mesh', checked: '' }), ' model'),
    el('div', { id: 'weft-legend', class: 'muted', style: 'font-size:12px;margin:4px 0' }),
    el('hr'),
    el('label', {}, 'scenario ', el('select', { id: 'weft-scenario' })),
    el('div', { id: 'weft-scenario-list' }, el('table', { id: 'weft-scenarios' })),
    el('div', {}, el('button', { id: 'weft-play' }, 'play'), ' ', el('button', { id: 'weft-worst', title: 'show the worst gate step' }, 'worst'),
      ' ', el('span', { id: 'weft-step', class: 'muted' })),
    el('canvas', { id: 'weft-timeline', width: '376', height: '36' }),
    el('input', { id: 'weft-slider', type: 'range', min: '0', max: '0', value: '0', style: 'width:376px' }),
    el('div', { id: 'weft-plot-legend', class: 'legend', style: 'font-size:12px;margin-top:6px' }),
    el('div', { id: 'weft-plots' }),
    el('div', { id: 'weft-gates', style: 'margin-top:6px' }),
    el('hr'),
    el('div', { id: 'weft-issues', style: 'font-size:12px' }))));
$('weft-title').append(el('h1', {}, data.model),
  el('div', { class: 'muted' }, `${data.status || ''} · ${data.proxies.length} prox${data.proxies.length === 1 ? 'y' : 'ies'}`));

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

// The model: body and garments share one position buffer, skinned over the page's nodes.
const nodeCount = (data.nodes || []).length;
const body = { group: new THREE.Group(), rest: null, position: null, joints: null, weights: null, geometry: null };
if (data.mesh && data.mesh.vertices > 0) {
  body.rest = decodePositions(data.mesh.positions, data.mesh.bounds);
  body.position = new THREE.BufferAttribute(body.rest.slice(), 3);
  body.position.setUsage(THREE.DynamicDrawUsage);
  body.joints = decodeIndices(data.mesh.skin.joints);
  body.weights = bytesOf(data.mesh.skin.weights);
  const parts = [[data.mesh.indices, 0x9aa3ad, 0.35], [data.mesh.garment_indices, 0xf08c33, 0.55]];
  for (const [indices, colour, opacity] of parts) {
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', body.position);
    g.setIndex(new THREE.BufferAttribute(decodeIndices(indices), 1));
    g.computeVertexNormals();
    body.group.add(new THREE.Mesh(g, new THREE.MeshLambertMaterial({ color: colour, transparent: true, opacity,
                                                                    depthWrite: false, side: THREE.DoubleSide })));
    g.computeBoundingBox();
    if (g.index.count) box.union(g.boundingBox);
  }
  scene.add(body.group);
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
const clips = (data.clips || []).map((c) => decodeClip(c, nodeCount));

// Per proxy: one position buffer shared by its particles, links and surface, so a frame moves them all.
function points(position, indices, size, colour) {
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', position);
  g.setIndex(indices);
  return new THREE.Points(g, new THREE.PointsMaterial({ size, sizeAttenuation: false, color: colour, transparent: true, opacity: 0.85 }));
}
function lines(position, indices, colour, opacity = 1) {
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', position);
  g.setIndex(new THREE.BufferAttribute(indices, 1));
  return new THREE.LineSegments(g, new THREE.LineBasicMaterial({ color: colour, transparent: opacity < 1, opacity }));
}
const proxies = data.proxies.map((p, index) => {
  const colour = PROXY_COLOURS[index % PROXY_COLOURS.length];
  const rest = decodePositions(p.rest, p.bounds);
  const position = new THREE.BufferAttribute(rest.slice(), 3);
  position.setUsage(THREE.DynamicDrawUsage);
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', position);
  const colours = new THREE.BufferAttribute(new Float32Array(p.particles * 3), 3);
  geometry.setAttribute('color', colours);
  const group = new THREE.Group();
  group.add(new THREE.Points(geometry, new THREE.PointsMaterial({ size: 6, sizeAttenuation: false, vertexColors: true })));
  const edges = decodeIndices(p.edges);
  if (edges.length) group.add(lines(position, edges, colour));
  const skips = decodeIndices(p.skips);
  if (skips.length) group.add(lines(position, skips, 0xffb74d, 0.45));
  const triangles = decodeIndices(p.triangles);
  if (triangles.length) {  // a sheet's surface, in its proxy's colour
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', position);
    g.setIndex(new THREE.BufferAttribute(triangles, 1));
    g.computeVertexNormals();
    const surface = new THREE.Mesh(g, new THREE.MeshLambertMaterial({ color: colour, transparent: true, opacity: 0.45, side: THREE.DoubleSide }));
    surface.userData.surface = true;
    group.add(surface);
  }
  // Pins: the held particles ringed in red; each holder a red diamond at rest.
  const held = [];
  const holders = new THREE.Group();
  for (const pin of p.pins) {
    for (const i of pin.particles) held.push(i);
    if (pin.holder_position) {
      const d = new THREE.Mesh(new THREE.OctahedronGeometry(0.015), new THREE.MeshBasicMaterial({ color: 0xef5350 }));
      d.position.fromArray(pin.holder_position);
      holders.add(d);
    }
  }
  group.add(holders);
  group.add(points(position, held, 11, 0xef5350));
  const degree = new Uint32Array(p.particles);
  for (let k = 0; k < edges.length; ++k) degree[edges[k]]++;
  const tips = [];
  for (let i = 0; i < p.particles; ++i) if (p.kind === 'rig' && degree[i] === 1 && p.mass[i] > 0) tips.push(i);
  group.add(points(position, tips, 10, 0xfff176));
  scene.add(group);
  box.union(new THREE.Box3().setFromBufferAttribute(position));
  // A rig's chain on the skeleton (lib/outputs/view_scenarios.cpp): each particle's node and the next on its chain.
  let chain = null;
  if (p.joint_nodes && p.next) {
    const prev = new Int32Array(p.particles).fill(-1);
    p.next.forEach((j, i) => { if (j >= 0) prev[j] = i; });
    chain = { nodes: p.joint_nodes, next: p.next, prev };
  }
  const label = el('div', { style: `background:${colour}` }, p.garment);
  $('weft-labels').append(label);
  return { p, index, colour, rest, now: rest, position, colours, group, holders, chain, label, figures: new Map(),
           scenarios: new Map(p.scenarios.map((s) => [s.scenario, s])), frames: new Map() };
});

// ---- colours --------------------------------------------------------------------------------------
function ramp(t) {  // dark blue -> teal -> yellow
  return new THREE.Color().setHSL(0.66 - 0.5 * Math.min(Math.max(t, 0), 1), 0.85, 0.35 + 0.3 * t);
}
function colourProxies() {
  const by = $('weft-colour').value;
  let legend = '';
  for (const x of proxies) {
    const { p, colours } = x;
    const values = by === 'colour' ? Array.from(decodeIndices(p.colour)) : by === 'd_geo' ? p.d_geo : by === 'mass' ? p.mass : null;
    let hi = 0;
    if (values) for (const v of values) hi = Math.max(hi, v);
    const own = new THREE.Color(x.colour);
    for (let i = 0; i < p.particles; ++i) {
      let c = own;
      if (by === 'colour') c = new THREE.Color().setHSL((values[i] * 0.618034) % 1, 0.75, 0.6);
      else if (values && values[i] < 0) c = new THREE.Color(0x888888);  // d_geo: nothing holds it
      else if (values) c = ramp(hi > 0 ? values[i] / hi : 0);
      colours.setXYZ(i, c.r, c.g, c.b);
    }
    colours.needsUpdate = true;
    if (by === 'colour') legend = `${p.colours} colours (each a range the solver sweeps at once)`;
    else if (by === 'proxy') legend = 'each proxy in its colour';
    else legend = `${by === 'd_geo' ? 'd_geo, m' : 'mass, kg'}: blue 0 → yellow ${hi.toPrecision(3)}${by === 'd_geo' ? ', grey: unheld' : ', held: 0'}`;
  }
  $('weft-legend').textContent = `${legend}. Red: pins and holders; yellow: chain tips; orange: the garments on the model.`;
}
$('weft-colour').addEventListener('change', colourProxies);
$('weft-mesh').addEventListener('change', () => { body.group.visible = $('weft-mesh').checked; render(); });
state.showModel = (show) => { $('weft-mesh').checked = show; body.group.visible = show; render(); };

// ---- proxy and scenario choice --------------------------------------------------------------------
$('weft-proxy').append(el('option', { value: '-1' }, 'all'),
  ...proxies.map((x) => el('option', { value: String(x.index) }, `${x.p.garment} (${x.p.kind}, ${x.p.particles})`)));
const scenarioNames = [];
for (const x of proxies) for (const s of x.p.scenarios) if (!scenarioNames.includes(s.scenario)) scenarioNames.push(s.scenario);
state.scenarios = scenarioNames;
function verdictOf(name) {
  const runs = proxies.map((x) => x.scenarios.get(name)).filter(Boolean);
  return runs.every((s) => s.passed) ? '✓' : '✗';
}
$('weft-scenario').append(el('option', { value: '' }, 'at rest'),
  ...scenarioNames.map((n) => el('option', { value: n }, `${n} ${verdictOf(n)}`)));
scenarioTable($('weft-scenarios'), proxies, scenarioNames, (name) => setScenario(name));
function shownProxies() {
  const v = Number($('weft-proxy').value);
  return v < 0 ? proxies : proxies.filter((x) => x.index === v);
}
function setProxy(index) {
  $('weft-proxy').value = String(index);
  for (const x of proxies) x.group.visible = shownProxies().includes(x);
  showStep(state.step);
}
state.setProxy = setProxy;
$('weft-proxy').addEventListener('change', () => setProxy(Number($('weft-proxy').value)));

function framesOf(x, name) {
  if (x.frames.has(name)) return x.frames.get(name);
  const s = x.scenarios.get(name);
  let f = null;
  if (s && s.frames) f = { steps: s.frames.steps, positions: decodePositions(s.frames.positions, s.frames.bounds) };
  x.frames.set(name, f);
  return f;
}
function figuresOf(x, name, key) {
  const id = `${name}\n${key}`;
  if (!x.figures.has(id)) {
    const s = x.scenarios.get(name);
    x.figures.set(id, s && s.figures ? decodeSeries(s.figures.series[key]) : null);
  }
  return x.figures.get(id);
}
/// The worst gate step of the scenario over the proxies shown: a failed gate's first.
function worstOf(name) {
  let worst = null;
  for (const x of shownProxies()) {
    const s = x.scenarios.get(name);
    if (s && s.worst && (!worst || (!s.worst.passed && worst.passed))) worst = s.worst;
  }
  return worst;
}

function setScenario(name) {
  state.scenario = name;
  $('weft-scenario').value = name;
  pause();
  let last = 0;
  for (const x of proxies) {
    const s = x.scenarios.get(name);
    if (s) last = Math.max(last, s.steps);
  }
  state.lastStep = last;
  const worst = worstOf(name);
  state.worstStep = worst ? worst.step : null;
  $('weft-slider').max = String(last);
  for (const row of $('weft-scenarios').querySelectorAll('tbody tr')) row.classList.toggle('chosen', row.dataset.scenario === name);
  for (const x of proxies) x.holders.visible = !name;
  showStep(0);
}
state.setScenario = setScenario;
$('weft-scenario').addEventListener('change', () => setScenario($('weft-scenario').value));
$('weft-slider').addEventListener('input', () => { pause(); showStep(Number($('weft-slider').value)); });
function pause() {
  state.playing = false;
  $('weft-play').textContent = 'play';
}
state.pause = pause;
$('weft-play').addEventListener('click', () => {
  if (!state.scenario) return;
  if (state.playing) { pause(); return; }
  if (state.step >= state.lastStep) showStep(0);
  state.playing = true;
  $('weft-play').textContent = 'pause';
});
state.play = (speed = 1) => {
  if (!state.scenario && scenarioNames.length) setScenario(scenarioNames[0]);
  state.speed = speed;
  showStep(0);
  state.playing = true;
  $('weft-play').textContent = 'pause';
};
state.seek = (step) => { pause(); showStep(step); };
$('weft-worst').addEventListener('click', () => { if (state.worstStep != null) state.seek(state.worstStep); });
$('weft-timeline').addEventListener('click', (e) => {
  const r = e.currentTarget.getBoundingClientRect();
  state.seek(Math.round(((e.clientX - r.left) / r.width) * state.lastStep));
});

// ---- one step: the cloth as recorded, the model as the clip and the chains moved it --------------
const motions = identityMotions(nodeCount);
function showStep(step) {
  state.step = Math.min(Math.max(0, Math.round(step)), state.lastStep);
  $('weft-slider').value = String(state.step);
  const run = proxies.map((x) => x.scenarios.get(state.scenario)).find(Boolean);
  const clip = run && run.clip != null ? clips[run.clip] : null;
  let frameIndex = 0, frameCount = 0, shownStep = state.step;
  for (const x of proxies) {
    const f = state.scenario ? framesOf(x, state.scenario) : null;
    if (!f) continue;
    let k = 0;  // the last recorded frame at or before the step
    while (k + 1 < f.steps.length && f.steps[k + 1] <= state.step) ++k;
    frameIndex = Math.max(frameIndex, k);
    frameCount = Math.max(frameCount, f.steps.length);
    shownStep = f.steps[k];
  }
  // The clip's pose at the frame shown (validation poses step s+1 with the clip's step s).
  if (clip) clipMotions(clip, Math.max(shownStep - 1, 0), motions);
  else motions.set(identityMotions(nodeCount));
  for (const x of proxies) {
    const f = state.scenario ? framesOf(x, state.scenario) : null;
    let now = x.rest;
    if (f) {
      let k = 0;
      while (k + 1 < f.steps.length && f.steps[k + 1] <= state.step) ++k;
      const n = x.p.particles * 3;
      now = f.positions.slice(k * n, (k + 1) * n);
      // Recorded relative to what holds the cloth: in a clip that rides with the skeleton.
      if (clip && x.p.rides >= 0) for (let i = 0; i < n; i += 3) place(motions, x.p.rides, now[i], now[i + 1], now[i + 2], now, i);
    }
    x.now = now;
    x.position.array.set(now);
    x.position.needsUpdate = true;
    for (const child of x.group.children) if (child.userData.surface) child.geometry.computeVertexNormals();
  }
  if (body.rest && nodeCount) {
    for (const x of proxies) if (x.chain && state.scenario) poseChain(x.chain, x.rest, x.now, motions);
    (data.follows || []).forEach((joint, n) => { if (joint >= 0) motions.copyWithin(n * 7, joint * 7, joint * 7 + 7); });
    skin(body.rest, body.joints, body.weights, motions, body.position.array);
    body.position.needsUpdate = true;
    for (const m of body.group.children) m.geometry.computeVertexNormals();
  }
  state.frameIndex = frameIndex;
  state.frameCount = frameCount;
  state.clip = clip ? clip.name : null;
  document.body.dataset.frame = String(frameIndex);
  if (frameCount > 0 && frameIndex === frameCount - 1) document.body.dataset.lastFrame = state.scenario;
  const seconds = (state.step * data.dt).toFixed(2);
  $('weft-step').textContent = state.scenario
    ? `step ${state.step} / ${state.lastStep} (${seconds} s), frame ${frameIndex + 1} / ${frameCount}` +
      (state.worstStep != null ? `, worst at ${state.worstStep}` : '')
    : 'rest pose';
  drawTimeline();
  gatesTable($('weft-gates'), shownProxies(), state.scenario, state.seek);
  drawPlots();
}

function drawTimeline() {
  const c = $('weft-timeline'), ctx = c.getContext('2d'), w = c.width, h = c.height;
  ctx.clearRect(0, 0, w, h);
  ctx.fillStyle = 'rgba(128,128,128,0.12)';
  ctx.fillRect(0, 10, w, h - 20);
  if (!state.scenario || !state.lastStep) return;
  const X = (step) => (step / state.lastStep) * (w - 1);
  ctx.fillStyle = 'rgba(128,128,128,0.5)';
  for (const x of shownProxies()) {  // the recorded frames
    const f = framesOf(x, state.scenario);
    if (f) for (const s of f.steps) ctx.fillRect(Math.round(X(s)), 12, 1, 4);
  }
  shownProxies().forEach((x) => {  // each proxy's worst gate step
    const s = x.scenarios.get(state.scenario);
    if (!s || !s.worst) return;
    const px = X(s.worst.step);
    ctx.fillStyle = s.worst.passed ? x.colour : '#e53935';
    ctx.beginPath(); ctx.moveTo(px, h - 10); ctx.lineTo(px - 5, h); ctx.lineTo(px + 5, h); ctx.fill();
  });
  ctx.fillStyle = getComputedStyle(c).color;  // the cursor in the panel's ink, light or dark
  ctx.fillRect(Math.round(X(state.step)) - 1, 6, 2, h - 12);
}

// ---- plots ----------------------------------------------------------------------------------------
const PLOTS = [
  { key: 'max_speed', title: 'fastest particle', unit: 'm/s', gates: ['NON_FINITE'] },
  { key: 'max_strain', title: 'worst stretch (STRAIN)', unit: 'length / rest', gates: ['STRAIN'], limit: () => data.limits.max_strain },
  { key: 'total_energy', title: 'energy (total; kinetic dashed; ENERGY_RISING judges the undriven last third)', unit: 'J',
    second: 'kinetic_energy', gates: ['ENERGY_RISING', 'NEVER_SLEPT'] },
];
function drawPlots() {
  const shown = shownProxies().filter((x) => { const s = x.scenarios.get(state.scenario); return s && s.figures; });
  const plots = $('weft-plots');
  const legend = $('weft-plot-legend');
  legend.replaceChildren(...shown.map((x) => el('span', { style: `color:${x.colour}` }, `■ ${x.p.garment}`)));
  if (!shown.length) { plots.replaceChildren(); state.plotSeries = []; return; }
  if (plots.querySelectorAll('canvas').length !== PLOTS.length) {
    plots.replaceChildren(...PLOTS.flatMap((p) => [el('div', { class: 'muted', style: 'font-size:12px;margin-top:6px' }, p.title),
      el('canvas', { width: '376', height: '120', dataset: { key: p.key } })]));
  }
  const canvases = plots.querySelectorAll('canvas');
  let steps = 0;
  for (const x of shown) steps = Math.max(steps, x.scenarios.get(state.scenario).steps);
  state.plotSeries = PLOTS.map((spec, k) => {
    const series = [], marks = [];
    for (const x of shown) {
      const s = x.scenarios.get(state.scenario);
      series.push({ values: figuresOf(x, state.scenario, spec.key), every: s.figures.every, colour: x.colour });
      if (spec.second) series.push({ values: figuresOf(x, state.scenario, spec.second), every: s.figures.every, colour: x.colour, dashed: true });
      for (const g of s.gates) if (spec.gates.includes(g.gate) && (!g.passed || spec.key === 'max_strain')) marks.push({ step: g.step, colour: x.colour, failed: !g.passed });
    }
    const sleep = shown.length === 1 ? shown[0].scenarios.get(state.scenario).sleep_step : null;
    drawPlot(canvases[k], { series, steps, dt: data.dt, unit: spec.unit, limit: spec.limit ? spec.limit() : null, marks,
                            cursor: state.step, sleepStep: sleep });
    return series.filter((s) => !s.dashed).length;
  });
}

issuesList($('weft-issues'), data.issues);

// ---- camera, labels and the loop ------------------------------------------------------------------
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
const centre = new THREE.Vector3();
function placeLabels() {  // each proxy's name by its particles' centre, when more than one is shown
  const shown = shownProxies();
  for (const x of proxies) {
    x.label.style.display = shown.length > 1 && shown.includes(x) ? '' : 'none';
    if (x.label.style.display) continue;
    centre.set(0, 0, 0);
    for (let i = 0; i < x.now.length; i += 3) centre.x += x.now[i], centre.y += x.now[i + 1], centre.z += x.now[i + 2];
    centre.multiplyScalar(3 / Math.max(x.now.length, 3)).project(camera);
    x.label.style.left = `${((centre.x + 1) / 2) * canvas.clientWidth + 8}px`;
    x.label.style.top = `${((1 - centre.y) / 2) * canvas.clientHeight - 8}px`;
  }
}
function render() {
  resize();
  renderer.render(scene, camera);
  placeLabels();
}
let last = performance.now();
let carry = 0;
function loop(now) {
  if (state.playing) {
    carry += ((now - last) / 1000 / data.dt) * state.speed;
    const whole = Math.floor(carry);
    carry -= whole;
    if (whole > 0) showStep(state.step + whole);
    if (state.step >= state.lastStep) pause();
  }
  last = now;
  controls.update();
  render();
  requestAnimationFrame(loop);
}
colourProxies();
frameCamera();
setScenario('');
render();
state.ready = true;
document.body.dataset.ready = 'true';
requestAnimationFrame(loop);
