/**
 * Seeded randomness: every random choice of the stub (generated world, fault dice, webhook
 * jitter) comes from here, so a run reproduces from its seed.
 */

/** 32-bit mix (murmur3 finalizer). */
function mix32(x: number): number {
  let h = x | 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** FNV-1a of a string, mixed. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return mix32(h);
}

/** Combines numbers into one 32-bit seed. */
export function hashInts(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const p of parts) h = mix32(h ^ mix32((p | 0) + 0x7f4a7c15 + (Math.floor(p / 2 ** 32) | 0)));
  return h;
}

/** Eight hex digits of a number in [0, 2^32). */
function hex(n: number): string {
  return Math.floor(n).toString(16).padStart(8, '0');
}

/** mulberry32: small, fast, good enough for test data and fault dice. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [lo, hi] inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return p > 0 && this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** A uuid-shaped id drawn from this generator (deterministic). */
  uuid(): string {
    const a = hex(this.next() * 2 ** 32);
    const b = hex(this.next() * 2 ** 32);
    const c = hex(this.next() * 2 ** 32);
    const d = hex(this.next() * 2 ** 32);
    return `${a}-${b.slice(0, 4)}-4${b.slice(5, 8)}-a${c.slice(1, 4)}-${c.slice(4)}${d}`;
  }
}

/** A seed given as a number or a string, as the seed route accepts it. */
export function seedToInt(seed: number | string): number {
  return typeof seed === 'number' ? hashInts(seed) : hashString(seed);
}
