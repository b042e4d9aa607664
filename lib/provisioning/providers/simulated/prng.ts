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

/**
 * Mixes up to four non-negative integer keys into one 32-bit value (murmur3 finalizer per key). Fixed arity
 * instead of rest parameters: this runs millions of times when the demo history is back-filled.
 */
export function hash32(a: number, b = 0, c = 0, d = 0): number {
  let h = mix(0x811c9dc5, a);
  h = mix(h, b);
  h = mix(h, c);
  return mix(h, d);
}

function mix(h: number, k: number): number {
  // The high part is folded in too: tick numbers and epoch hours do not fit in 32 bits forever.
  const hi = (k / 4294967296) | 0;
  return fmix(fmix(h ^ (k | 0)) ^ Math.imul(hi, 0x9e3779b1));
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
export function hashUnit(a: number, b = 0, c = 0, d = 0): number {
  return fmix(hash32(a, b, c, d) + 0x6d2b79f5) / 4294967296;
}

/** Approximately normal (mean 0, sd 1) from keys: Irwin–Hall of 4 uniforms, rescaled (fine for noise). */
export function hashNormal(a: number, b = 0, c = 0, d = 0): number {
  const h = hash32(a, b, c, d);
  const sum = fmix(h + 1) + fmix(h + 2) + fmix(h + 3) + fmix(h + 4);
  return (sum / 4294967296 - 2) * Math.sqrt(3);
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
