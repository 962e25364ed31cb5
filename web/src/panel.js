// The page's side panel built from the data (docs/view.md): the scenario list with each proxy's
// verdict, the gates of the scenario shown, the issues. Every value from the data reaches the page
// as text (textContent), never as markup: a name is shown, never run.
// Each proxy's colour: none of them the garments' orange on the model or the colliders' green.
export const PROXY_COLOURS = ['#42a5f5', '#26c6da', '#ab47bc', '#ec407a', '#7e57c2', '#d4e157', '#8d6e63', '#78909c'];

export function el(tag, attributes = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attributes)) {
    if (k === 'class') e.className = v;
    else if (k === 'style') e.style.cssText = v;
    else if (k === 'dataset') Object.assign(e.dataset, v);
    else e.setAttribute(k, v);
  }
  for (const c of children) if (c != null) e.append(c instanceof Node ? c : String(c));
  return e;
}

/// A gate's number for people: millimetres for metres, else four figures.
export function gateNumber(v, unit) {
  if (v == null) return '';
  if (unit === 'm') return `${(v * 1000).toPrecision(3)} mm`;
  if (unit === 'step' || unit === 'faces' || unit === 'crossing pairs') return String(Math.round(v));
  const a = Math.abs(v);
  return a !== 0 && (a < 1e-3 || a >= 1e5) ? v.toExponential(1) : v.toPrecision(4);
}

/// The scenario list: a row per scenario, a verdict per proxy; `choose(name)` on a click.
export function scenarioTable(table, proxies, names, choose) {
  table.replaceChildren();
  const head = el('tr', {}, el('th', {}, 'scenario'));
  for (const x of proxies) head.append(el('th', { style: `color:${x.colour}`, title: x.p.file }, x.p.garment));
  table.append(el('thead', {}, head));
  const body = el('tbody');
  const rest = el('tr', { dataset: { scenario: '' } }, el('td', {}, 'at rest'));
  for (let k = 0; k < proxies.length; ++k) rest.append(el('td'));
  body.append(rest);
  for (const name of names) {
    const row = el('tr', { dataset: { scenario: name } }, el('td', { class: 'path' }, name));
    for (const x of proxies) {
      const s = x.scenarios.get(name);
      if (!s) { row.append(el('td', { class: 'muted' }, '–')); continue; }
      const w = s.worst ? s.gates.find((g) => g.gate === s.worst.gate && g.step === s.worst.step) : null;
      const title = w ? `${w.gate} ${gateNumber(w.value, w.unit)} (limit ${gateNumber(w.limit, w.unit)}) at step ${w.step}` : '';
      row.append(el('td', { class: s.passed ? 'good' : 'bad', title }, s.passed ? '✓' : `✗ ${s.worst ? s.worst.gate : ''}`));
    }
    body.append(row);
  }
  table.append(body);
  body.addEventListener('click', (e) => {
    const row = e.target.closest('tr');
    if (row) choose(row.dataset.scenario);
  });
}

/// The gates of one scenario for the proxies shown; `seek(step)` when a step is clicked.
export function gatesTable(container, shown, scenario, seek) {
  container.replaceChildren();
  const rows = [];
  for (const x of shown) {
    const s = x.scenarios.get(scenario);
    if (!s) continue;
    for (const g of s.gates) {
      const step = el('button', { class: 'step', title: 'show this step' }, String(g.step));
      step.addEventListener('click', () => seek(g.step));
      rows.push(el('tr', { class: g.passed ? '' : 'bad', title: `${g.message} (${g.unit})` },
        el('td', { style: `color:${x.colour}` }, x.p.garment), el('td', {}, g.gate + (g.from === 'mesh' ? ' (mesh)' : '')),
        el('td', { class: 'num' }, gateNumber(g.value, g.unit)), el('td', { class: 'num' }, gateNumber(g.limit, g.unit)),
        el('td', { class: g.passed ? 'good' : 'bad' }, g.passed ? '✓' : '✗'), el('td', {}, step)));
    }
  }
  if (!rows.length) return;
  const table = el('table', { class: 'gates' },
    el('thead', {}, el('tr', {}, el('th', {}, 'proxy'), el('th', {}, 'gate'), el('th', {}, 'value'), el('th', {}, 'limit'),
      el('th', {}, ''), el('th', {}, 'step'))));
  table.append(el('tbody', {}, ...rows));
  container.append(table);
}

export function issuesList(container, issues) {
  container.replaceChildren();
  if (!issues.length) { container.append(el('span', { class: 'good' }, 'no issues')); return; }
  container.append(el('b', {}, 'issues'));
  const counts = new Map();
  for (const i of issues) counts.set(i.code, (counts.get(i.code) || 0) + 1);
  for (const [code, n] of counts) {
    const first = issues.find((i) => i.code === code);
    container.append(el('div', {}, el('span', { class: first.severity === 'error' ? 'bad' : 'muted' }, code + (n > 1 ? ` ×${n}` : '')),
      ': ' + first.message));
  }
}
