/** Time spent per label (count, total, max), summed across concurrent calls. */
export interface MeterEntry {
  count: number;
  totalMs: number;
  maxMs: number;
}

export class Meter {
  private readonly entries = new Map<string, MeterEntry>();

  add(label: string, ms: number): void {
    const entry = this.entries.get(label) ?? { count: 0, totalMs: 0, maxMs: 0 };
    entry.count++;
    entry.totalMs += ms;
    entry.maxMs = Math.max(entry.maxMs, ms);
    this.entries.set(label, entry);
  }

  async time<T>(label: string, work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.add(label, performance.now() - started);
    }
  }

  /** Labels by total time, largest first, times rounded to ms. */
  toJSON(): Record<string, MeterEntry> {
    const sorted = [...this.entries].sort((a, b) => b[1].totalMs - a[1].totalMs);
    return Object.fromEntries(
      sorted.map(([label, e]) => [
        label,
        { count: e.count, totalMs: Math.round(e.totalMs), maxMs: Math.round(e.maxMs) },
      ]),
    );
  }
}
