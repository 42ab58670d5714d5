/** What `ledgersync demo` found, as `demo --json` prints it. */
export interface DemoSummary {
  platform: string;
  erp: { accounts: number; options: number; vendors: number };
  mirror: Record<string, number>;
  ready: Record<string, number>;
  kinds: { kind: string; posted: number; failed: number; reported: number; vendorsCreated: number }[];
  books: { balanced: boolean; currencies: string[] };
  /**
   * Results reported as failed, and every reason with how many share it (they add up to
   * `total`). The seeded world holds objects a bookkeeper must fix on purpose, so failures are
   * expected: they do not change the exit code.
   */
  failures: { total: number; reasons: { message: string; n: number }[] };
}

/** How many reasons the text lists by name; the rest are counted on one line. */
const NAMED_REASONS = 4;

/**
 * The demo's failure lines: a heading, the most frequent reasons, and one line for the others,
 * so the counts listed add up to the failures in the heading.
 */
export function failureLines(failures: DemoSummary['failures']): string[] {
  if (failures.total === 0) return [];
  const named = failures.reasons.slice(0, NAMED_REASONS);
  const others = failures.reasons.slice(NAMED_REASONS);
  const othersCount = others.reduce((n, r) => n + r.n, 0);
  const count = (n: number) => `  ${String(n).padStart(4)} × `;
  return [
    `Failures   ${failures.total} results reported as failed, on purpose: the seeded world holds objects a bookkeeper must fix. What the bookkeeper reads, most frequent first:`,
    ...named.map((r) => `${count(r.n)}${r.message}`),
    ...(others.length > 0
      ? [
          `${count(othersCount)}${others.length} other reason${others.length === 1 ? '' : 's'} (every one: demo --json)`,
        ]
      : []),
  ];
}
