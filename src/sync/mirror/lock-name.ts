/** Name of the advisory lock that keeps one chart mirror per target connection at a time. */
export function mirrorLockName(targetConnectionId: string): string {
  return `ledgersync:coa-mirror:${targetConnectionId}`;
}
