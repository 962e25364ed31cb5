// One figure against time on a 2D canvas (docs/view.md#what-a-page-shows): axes with ticks and units (seconds
// across, the figure's unit up), one line per proxy in its colour (a second figure dashed), the
// gate's limit as a labelled red dashed line, each proxy's worst gate step as a mark on the time
// axis, the sleep step green, and the cursor.
const LEFT = 46, RIGHT = 8, TOP = 8, BOTTOM = 18;

/// 1, 2 or 5 times a power of ten: about `count` ticks over [lo, hi].
export function niceTicks(lo, hi, count = 4) {
  const span = hi - lo;
  if (!(span > 0)) return [lo];
  const raw = span / count, p = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw) || 10 * p;
  const ticks = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-6; t += step) ticks.push(Math.abs(t) < step * 1e-9 ? 0 : t);
  return ticks;
}

function label(v) {
  const a = Math.abs(v);
  if (a !== 0 && (a < 1e-3 || a >= 1e5)) return v.toExponential(1);
  return String(Number(v.toPrecision(3)));
}

/// series: [{values, every, colour, dashed}]; steps: the run's length; dt: seconds a step.
export function drawPlot(canvas, { series, steps, dt, unit, limit = null, marks = [], cursor = 0, sleepStep = null }) {
  const ctx = canvas.getContext('2d');
  const w = canvas.width, h = canvas.height;
  const style = getComputedStyle(canvas);
  const ink = style.color || '#888';
  ctx.clearRect(0, 0, w, h);
  ctx.fillStyle = 'rgba(128,128,128,0.07)';
  ctx.fillRect(LEFT, TOP, w - LEFT - RIGHT, h - TOP - BOTTOM);
  let lo = Infinity, hi = -Infinity;
  for (const s of series) for (const v of s.values) if (Number.isFinite(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  if (limit != null) { lo = Math.min(lo, limit); hi = Math.max(hi, limit); }
  if (!Number.isFinite(lo)) { lo = 0; hi = 1; }
  if (!(hi > lo)) { const pad = Math.abs(lo) * 0.1 || 1; lo -= pad; hi += pad; }
  const span = hi - lo;
  lo -= span * 0.06; hi += span * 0.06;
  const seconds = Math.max(steps, 1) * dt;
  const X = (step) => LEFT + (Math.max(0, step) * dt / seconds) * (w - LEFT - RIGHT);
  const Y = (v) => h - BOTTOM - ((v - lo) / (hi - lo)) * (h - TOP - BOTTOM);
  ctx.font = '10px system-ui, sans-serif';
  ctx.fillStyle = ink;
  ctx.strokeStyle = 'rgba(128,128,128,0.35)';
  ctx.lineWidth = 1;
  // Axes: value ticks with grid lines, then time ticks in seconds.
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const t of niceTicks(lo, hi, 3)) {
    const y = Math.round(Y(t)) + 0.5;
    ctx.beginPath(); ctx.moveTo(LEFT, y); ctx.lineTo(w - RIGHT, y); ctx.stroke();
    ctx.fillText(label(t), LEFT - 4, y);
  }
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  for (const t of niceTicks(0, seconds, 5)) {
    const x = Math.round(LEFT + (t / seconds) * (w - LEFT - RIGHT)) + 0.5;
    ctx.beginPath(); ctx.moveTo(x, h - BOTTOM); ctx.lineTo(x, h - BOTTOM + 3); ctx.stroke();
    ctx.fillText(label(t), x, h - BOTTOM + 4);
  }
  ctx.textAlign = 'right';
  ctx.fillText('s', w - 1, h - BOTTOM + 4);
  ctx.save();
  ctx.translate(9, TOP + (h - TOP - BOTTOM) / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(unit, 0, 0);
  ctx.restore();
  ctx.strokeStyle = ink;
  ctx.beginPath(); ctx.moveTo(LEFT + 0.5, TOP); ctx.lineTo(LEFT + 0.5, h - BOTTOM + 0.5); ctx.lineTo(w - RIGHT, h - BOTTOM + 0.5); ctx.stroke();
  if (sleepStep) { ctx.fillStyle = 'rgba(67,160,71,0.6)'; ctx.fillRect(X(sleepStep) - 1, TOP, 2, h - TOP - BOTTOM); }
  if (limit != null) {
    const y = Y(limit);
    ctx.strokeStyle = '#e53935'; ctx.setLineDash([4, 3]);
    ctx.beginPath(); ctx.moveTo(LEFT, y); ctx.lineTo(w - RIGHT, y); ctx.stroke(); ctx.setLineDash([]);
    ctx.fillStyle = '#e53935'; ctx.textAlign = 'right'; ctx.textBaseline = 'bottom';
    ctx.fillText(`limit ${label(limit)}`, w - RIGHT - 2, y - 1);
  }
  ctx.save();
  ctx.beginPath(); ctx.rect(LEFT, TOP, w - LEFT - RIGHT, h - TOP - BOTTOM); ctx.clip();
  for (const s of series) {
    ctx.strokeStyle = s.colour; ctx.setLineDash(s.dashed ? [3, 2] : []); ctx.lineWidth = 1.3; ctx.beginPath();
    for (let i = 0; i < s.values.length; ++i) {
      const x = X((i + 1) * s.every), y = Y(s.values[i]);
      if (i) ctx.lineTo(x, y); else ctx.moveTo(x, y);
    }
    ctx.stroke();
  }
  ctx.restore();
  ctx.setLineDash([]);
  for (const m of marks) {  // a gate's worst step: a triangle on the time axis in the proxy's colour
    const x = X(m.step);
    ctx.fillStyle = m.failed ? '#e53935' : m.colour;
    ctx.beginPath(); ctx.moveTo(x, h - BOTTOM); ctx.lineTo(x - 4, h - BOTTOM + 7); ctx.lineTo(x + 4, h - BOTTOM + 7); ctx.fill();
  }
  ctx.fillStyle = 'rgba(128,128,128,0.9)';
  ctx.fillRect(X(cursor) - 0.5, TOP, 1, h - TOP - BOTTOM);
  return series.length;
}
