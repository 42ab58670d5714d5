/**
 * "42 s", "7 min", "3 h", "2 d": a span of time at a glance. A module of its own, below both
 * the health verdict and the status text that use it, so neither imports the other for it.
 */
export function spanOf(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 90) return `${s} s`;
  if (s < 90 * 60) return `${Math.round(s / 60)} min`;
  if (s < 36 * 3600) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86_400)} d`;
}
