/**
 * A set of small non-negative integers (object indexes) with ordered seek: `next(from)` returns
 * the smallest member >= from. A bitset with summary levels (32-way), so add, delete and next cost
 * O(log32 n) whatever the world size: at 1,000,000 objects, 3 levels and 128 KB per set. This is
 * what keeps a page of ready objects independent of the world size.
 */
export class IndexSet {
  private levels: Uint32Array[] = [];
  private capacityBits = 0;
  size = 0;

  constructor(capacity = 1024) {
    this.ensure(capacity);
  }

  get capacity(): number {
    return this.capacityBits;
  }

  /** Grows so that indexes below `capacity` fit; keeps members. */
  ensure(capacity: number): void {
    if (capacity <= this.capacityBits) return;
    let bits = Math.max(1024, this.capacityBits);
    while (bits < capacity) bits *= 2;
    const next: Uint32Array[] = [];
    let words = Math.ceil(bits / 32);
    for (let k = 0; ; k++) {
      const level = new Uint32Array(words);
      const old = this.levels[k];
      if (old) level.set(old);
      next.push(level);
      if (words === 1) break;
      words = Math.ceil(words / 32);
    }
    this.levels = next;
    this.capacityBits = bits;
  }

  has(i: number): boolean {
    if (i < 0 || i >= this.capacityBits) return false;
    return (this.levels[0]![i >>> 5]! & (1 << (i & 31))) !== 0;
  }

  add(i: number): boolean {
    this.ensure(i + 1);
    let pos = i;
    for (let k = 0; k < this.levels.length; k++) {
      const level = this.levels[k]!;
      const w = pos >>> 5;
      const bit = 1 << (pos & 31);
      const wasEmpty = level[w] === 0;
      if (k === 0 && (level[w]! & bit) !== 0) return false;
      level[w] = level[w]! | bit;
      if (k === 0) this.size++;
      if (!wasEmpty) break;
      pos = w;
    }
    return true;
  }

  delete(i: number): boolean {
    if (!this.has(i)) return false;
    let pos = i;
    for (let k = 0; k < this.levels.length; k++) {
      const level = this.levels[k]!;
      const w = pos >>> 5;
      level[w] = level[w]! & ~(1 << (pos & 31));
      if (k === 0) this.size--;
      if (level[w] !== 0) break;
      pos = w;
    }
    return true;
  }

  /** Smallest member >= from, or -1. */
  next(from: number): number {
    let pos = Math.max(0, from);
    let k = 0;
    for (;;) {
      if (k >= this.levels.length) return -1;
      const level = this.levels[k]!;
      const w = pos >>> 5;
      if (w >= level.length) return -1;
      const masked = level[w]! & (~0 << (pos & 31));
      if (masked !== 0) {
        pos = (w << 5) + ctz(masked);
        break;
      }
      pos = w + 1;
      k++;
    }
    while (k > 0) {
      k--;
      pos = (pos << 5) + ctz(this.levels[k]![pos]!);
    }
    return pos;
  }

  clear(): void {
    for (const level of this.levels) level.fill(0);
    this.size = 0;
  }
}

function ctz(x: number): number {
  return 31 - Math.clz32(x & -x);
}
