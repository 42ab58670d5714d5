import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { chartDifferences, type StubChart } from './support/compare.ts';
import { arrivalMark, arrivalsSince, writes } from './support/effects.ts';
import { useMirrorHarness } from './support/harness.ts';
import { largeLedger } from './support/large-chart.ts';
import type { ChildConfig } from './support/mirror-child.ts';

const h = useMirrorHarness({ rateLimit: false });
const CHILD = fileURLToPath(new URL('./support/mirror-child.ts', import.meta.url));

/** Starts a mirror process and SIGKILLs it once the stub has seen `afterWrites` more writes. */
async function killAfter(config: ChildConfig, afterWrites: number): Promise<'killed' | 'finished'> {
  const mark = await arrivalMark(h);
  const child: ChildProcess = fork(CHILD, [JSON.stringify(config)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let outcome: 'killed' | 'finished' = 'finished';
  try {
    for (;;) {
      const done = await Promise.race([exited.then(() => true), new Promise((r) => setTimeout(r, 5, false))]);
      if (done) break;
      if (writes((await arrivalsSince(h, mark)).arrivals).length >= afterWrites) {
        child.kill('SIGKILL');
        outcome = 'killed';
        break;
      }
    }
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  }
  return outcome;
}

describe('a mirror process killed with SIGKILL, then run again (docs/platform.md F12)', () => {
  it('ends identical to the ERP with no duplicates, whatever the kill interrupted', {
    timeout: 60_000,
  }, async () => {
    const ledger = await largeLedger(h);
    const connectionId = await h.newConnection();
    const config: ChildConfig = {
      ...h.clientConfig,
      databaseUrl: h.db.url,
      schema: h.db.schema,
      ledgerSchema: ledger.schema,
      connectionId,
    };
    const outcomes: string[] = [];
    for (const afterWrites of [4, 9, 15, 30]) outcomes.push(await killAfter(config, afterWrites));
    expect(outcomes.filter((o) => o === 'killed').length).toBeGreaterThanOrEqual(3);

    const summary = await h.mirror(ledger, connectionId);
    const chart = await h.control<StubChart>('GET', `/__stub/chart?accounting_connection_id=${connectionId}`);
    expect(await chartDifferences(chart, ledger.erp)).toEqual([]);
    expect(Object.values(summary.kinds).flatMap((k) => k.failed)).toEqual([]);
    console.info(
      `[measure] kill -9: ${outcomes.join(', ')}; the final run adopted ${summary.kinds.gl_account.adopted + summary.kinds.field_option.adopted + summary.kinds.vendor.adopted} items`,
    );
  });
});
