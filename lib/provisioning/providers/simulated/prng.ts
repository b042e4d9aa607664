/**
 * Tiny seeded randomness for the simulated fleet. Everything the simulator produces is a pure function of
 * (instance seed, time), so the same window always yields the same samples and logs, in any process, in any
 * order of calls. mulberry32 (public-domain, Tommy Ettinger) gives a stream from a 32-bit state; `hashUnit`
 * gives random access by key, which is what "pure function of time" needs.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Mixes integer keys into one 32-bit value (murmur3 finalizer per key); keys may exceed 32 bits. */
export function hash32(...keys: number[]): number {
  let h = 0x811c9dc5;
  for (const k of keys) {
    // Fold the high part in as well: tick numbers and epoch hours do not fit in 32 bits forever.
    const lo = k | 0;
    const hi = Math.floor(k / 4294967296) | 0;
    h = fmix(h ^ lo);
    h = fmix(h ^ Math.imul(hi, 0x9e3779b1));
  }
  return h >>> 0;
}

function fmix(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A uniform number in [0, 1) addressed by keys: the same keys always give the same number. */
export function hashUnit(...keys: number[]): number {
  return mulberry32(hash32(...keys))();
}

/** Approximately normal (mean 0, sd 1) from keys: Irwin–Hall of 4 uniforms, rescaled (fine for noise). */
export function hashNormal(...keys: number[]): number {
  const next = mulberry32(hash32(...keys));
  return (next() + next() + next() + next() - 2) * Math.sqrt(3);
}

/** Stable 32-bit number from a string (FNV-1a), for keys like a stream name or an instance id. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
