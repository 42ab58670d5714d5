/**
 * The stub's clock: a base (Date.now or an injected function) plus an offset that
 * POST /__stub/clock advances, so tests cross the 5-minute sync-button window (docs/platform.md G29) or a
 * token's lifetime without waiting.
 */
export class StubClock {
  private offsetMs = 0;

  constructor(private readonly base: () => number = Date.now) {}

  now(): number {
    return this.base() + this.offsetMs;
  }

  iso(at: number = this.now()): string {
    return new Date(at).toISOString();
  }

  advance(ms: number): number {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('advance_ms must be a non-negative number');
    this.offsetMs += ms;
    return this.now();
  }

  get offset(): number {
    return this.offsetMs;
  }

  resetOffset(): void {
    this.offsetMs = 0;
  }
}
