/** A kind of a `sync` run that stopped early (src/sync/objects/kind-failure.ts), and why. */
export interface KindFailure {
  kind: string;
  reason: string;
}

/** The stderr line for the kinds that stopped early: what to do is to fix the cause and run again. */
export function kindFailuresText(failures: readonly KindFailure[]): string {
  const lines = failures.map((f) => `  ${f.kind}: ${f.reason}`);
  const them = failures.length === 1 ? 'this kind' : 'these kinds';
  return (
    `ledgersync: ${them} stopped early; what was read before the stop was posted and reported, the rest waits for the next run:\n` +
    `${lines.join('\n')}\n`
  );
}
