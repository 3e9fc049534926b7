/**
 * Normalises rotation key values in place (tangents of CUBICSPLINE keys are left alone), as animgraph's
 * glTF loader does: the sampler assumes unit keys. Shared by the engine adapters' clip converters.
 * Returns the first zero-length key, or -1.
 */
export function normalizeRotationKeys(values: Float32Array, cubic: boolean): number {
  const step = cubic ? 12 : 4;
  const first = cubic ? 4 : 0;
  for (let k = 0, o = first; o < values.length; k++, o += step) {
    const len = Math.hypot(values[o]!, values[o + 1]!, values[o + 2]!, values[o + 3]!);
    if (!(len > 1e-6)) return k;
    for (let c = 0; c < 4; c++) values[o + c] = values[o + c]! / len;
  }
  return -1;
}
