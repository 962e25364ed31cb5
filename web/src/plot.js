// One figure against steps on a 2D canvas: the series, an optional second one dashed, the gate's
// limit as a red dashed line, the failing step as a red bar, the sleep step green, and a cursor.
export function drawPlot(canvas, values, { second = null, limit = null, failStep = null, cursor = 0, sleepStep = null } = {}) {
  const ctx = canvas.getContext('2d');
  const w = canvas.width, h = canvas.height, pad = 4;
  ctx.clearRect(0, 0, w, h);
  ctx.fillStyle = 'rgba(128,128,128,0.08)';
  ctx.fillRect(0, 0, w, h);
  if (!values || values.length === 0) return;
  let lo = Infinity, hi = -Infinity;
  for (const series of [values, second]) if (series) for (const v of series) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  if (limit != null) { lo = Math.min(lo, limit); hi = Math.max(hi, limit); }
  if (!(hi > lo)) { hi = lo + 1; }
  const span = hi - lo;
  lo -= span * 0.05; hi += span * 0.05;
  const n = values.length;
  const X = (step) => pad + ((step - 1) / Math.max(n - 1, 1)) * (w - 2 * pad);
  const Y = (v) => h - pad - ((v - lo) / (hi - lo)) * (h - 2 * pad);
  const line = (series, colour, dash) => {
    ctx.strokeStyle = colour; ctx.setLineDash(dash); ctx.lineWidth = 1.2; ctx.beginPath();
    for (let i = 0; i < series.length; ++i) (i ? ctx.lineTo : ctx.moveTo).call(ctx, X(i + 1), Y(series[i]));
    ctx.stroke(); ctx.setLineDash([]);
  };
  if (sleepStep) { ctx.fillStyle = 'rgba(67,160,71,0.6)'; ctx.fillRect(X(sleepStep) - 1, 0, 2, h); }
  if (failStep != null) { ctx.fillStyle = 'rgba(229,57,53,0.85)'; ctx.fillRect(X(Math.max(failStep, 1)) - 1.5, 0, 3, h); }
  if (limit != null) {
    ctx.strokeStyle = '#e53935'; ctx.setLineDash([4, 3]); ctx.beginPath(); ctx.moveTo(0, Y(limit)); ctx.lineTo(w, Y(limit)); ctx.stroke(); ctx.setLineDash([]);
  }
  if (second) line(second, '#ab47bc', [3, 2]);
  line(values, '#1e88e5', []);
  ctx.fillStyle = 'rgba(128,128,128,0.9)';
  ctx.fillRect(X(Math.max(cursor, 1)) - 0.5, 0, 1, h);
  ctx.font = '10px system-ui, sans-serif';
  ctx.fillText(hi.toPrecision(3), 2, 10);
  ctx.fillText(lo.toPrecision(3), 2, h - 2);
}
