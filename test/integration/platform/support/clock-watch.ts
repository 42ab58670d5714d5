/**
 * Redis scores the rate-limit log on the host's wall clock (TIME), and the limiter adds to such a
 * score intervals it measures on this process's monotonic clock; a test reads the wall clock
 * (Date.now()). A virtual machine's wall clock is stepped to keep time, apart from the monotonic
 * one (seen: 4 ms within half a second on a freshly booted host), so a bound that mixes the two
 * holds within whole ms plus what the two clocks moved apart while the test ran, not within whole
 * ms alone. This watch measures that.
 */
export interface ClockWatch {
  /** Whole ms the wall clock has moved apart from the monotonic clock since the watch started. */
  apartMs(): number;
}

export function watchClocks(): ClockWatch {
  const wallAt = Date.now();
  const monotonicAt = performance.now();
  return {
    apartMs: () => Math.ceil(Math.abs(Date.now() - wallAt - (performance.now() - monotonicAt))),
  };
}
