import { describe, expect, it } from 'vitest';
import { Checksum, checksum, checksumYielding } from '../src/snapshot/snapshot-format.js';

function bytesOf(length: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    bytes[i] = x >>> 24;
  }
  return bytes;
}

describe('Checksum in pieces', () => {
  it.each([
    { length: 0, pieces: [] as number[] },
    { length: 3, pieces: [3] },
    { length: 8, pieces: [8] },
    { length: 13, pieces: [8, 5] },
    { length: 64, pieces: [16, 16, 32] },
    { length: 1001, pieces: [512, 256, 8, 225] },
  ])('equals the whole for $length bytes cut as $pieces', async ({ length, pieces }) => {
    const bytes = bytesOf(length, length + 7);
    const sum = new Checksum(length);
    let at = 0;
    for (const piece of pieces) {
      sum.update(bytes.subarray(at, at + piece));
      at += piece;
    }
    expect(sum.digest()).toBe(checksum(bytes));
    expect(await checksumYielding(bytes)).toBe(checksum(bytes));
  });

  it('equals the whole on an unaligned view', () => {
    const bytes = bytesOf(101, 3).subarray(1);
    const sum = new Checksum(bytes.byteLength);
    sum.update(bytes.subarray(0, 48));
    sum.update(bytes.subarray(48));
    expect(sum.digest()).toBe(checksum(bytes));
  });

  it('tells one flipped bit and a missing byte', () => {
    const bytes = bytesOf(4096, 1);
    const flipped = bytes.slice();
    flipped[2000]! ^= 4;
    expect(checksum(flipped)).not.toBe(checksum(bytes));
    expect(checksum(bytes.subarray(0, 4095))).not.toBe(checksum(bytes));
  });

  it('refuses a short piece before others and a digest before every byte', () => {
    const sum = new Checksum(16);
    sum.update(new Uint8Array(5));
    expect(() => sum.update(new Uint8Array(8))).toThrow(/multiple of 8/);
    expect(() => new Checksum(16).digest()).toThrow(/fed 0 of 16/);
  });
});
