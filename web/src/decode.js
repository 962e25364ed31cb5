// The page data's packed arrays (lib/outputs/view_packing.h, docs/view.md#packed-arrays): base64 of
// little-endian integers, positions and series quantised to 16 bits over their bounds.
export function bytesOf(base64) {
  const text = atob(base64 || '');
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; ++i) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/// {width: 2|4, count, data} -> Uint16Array or Uint32Array.
export function decodeIndices(packed) {
  if (!packed || !packed.count) return new Uint32Array(0);
  const bytes = bytesOf(packed.data);
  return packed.width === 2 ? new Uint16Array(bytes.buffer, 0, packed.count) : new Uint32Array(bytes.buffer, 0, packed.count);
}

/// 16-bit values over {min, max} per axis -> Float32Array of x, y, z.
export function decodePositions(base64, bounds) {
  const bytes = bytesOf(base64);
  const q = new Uint16Array(bytes.buffer, 0, bytes.length >> 1);
  const out = new Float32Array(q.length);
  for (let i = 0; i < q.length; ++i) {
    const k = i % 3;
    out[i] = bounds.min[k] + (q[i] / 65535) * (bounds.max[k] - bounds.min[k]);
  }
  return out;
}

/// Signed 16-bit values as fractions of 32767 (a clip's rotations) -> Float32Array.
export function decodeUnit16(base64) {
  const bytes = bytesOf(base64);
  const q = new Int16Array(bytes.buffer, 0, bytes.length >> 1);
  const out = new Float32Array(q.length);
  for (let i = 0; i < q.length; ++i) out[i] = q[i] / 32767;
  return out;
}

/// {min, max, data}: one value a bucket of steps -> Float32Array.
export function decodeSeries(series) {
  if (!series) return new Float32Array(0);
  const bytes = bytesOf(series.data);
  const q = new Uint16Array(bytes.buffer, 0, bytes.length >> 1);
  const out = new Float32Array(q.length);
  for (let i = 0; i < q.length; ++i) out[i] = series.min + (q[i] / 65535) * (series.max - series.min);
  return out;
}
