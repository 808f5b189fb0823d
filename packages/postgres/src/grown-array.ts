/** `array` copied into one at least `needed` long (doubling), for buffers that grow while an import encodes rows. */
export function grown(array: Int32Array, needed: number): Int32Array {
  let size = array.length;
  while (size < needed) size *= 2;
  const bigger = new Int32Array(size);
  bigger.set(array);
  return bigger;
}
