import { UnrecoverableError } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { processCoaMirror } from '../../../jobs/coa-mirror.ts';
import type { ErpAdapter } from '../../../src/erp/index.ts';
import { seedLedger } from '../../../src/erp/index.ts';
import { silentLogger } from '../../../src/log.ts';
import { fakeJob } from '../../support/fake-job.ts';
import { useMirrorHarness } from '../sync/mirror/support/harness.ts';

const h = useMirrorHarness({ rateLimit: false });

/** What the worker hands the processor, with a test's own ledger as the ERP. */
const deps = (erp: ErpAdapter) => ({ sql: h.db.sql, erp, platform: h.client, log: silentLogger });

describe('processCoaMirror (BullMQ processor)', () => {
  it('refuses a payload that fails its schema without retrying', async () => {
    const ledger = await h.newLedger();
    const { job } = fakeJob({ connectionId: '', trigger: 'nope' });
    await expect(processCoaMirror(job, deps(ledger.erp))).rejects.toBeInstanceOf(UnrecoverableError);
  });

  it('mirrors, reports progress per kind and records the run', async () => {
    const ledger = await h.newLedger();
    await seedLedger(h.db.sql, ledger.schema, { preset: 'small', seed: 3 });
    const connectionId = await h.newConnection();
    const { job, progress } = fakeJob({ connectionId, trigger: 'cli' });

    const summary = await processCoaMirror(job, deps(ledger.erp));
    expect(summary.busy).toBe(false);
    expect(summary.kinds.gl_account.created).toBeGreaterThan(100);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toMatchObject({
      kind: 'tax_code_option',
      phase: 'done',
      counts: expect.any(Object),
    });
    const [run] = await h.db.sql<{ status: string; kind: string; trigger: string }[]>`
      select status, kind, trigger from runs where connection_id = ${connectionId} order by id desc limit 1`;
    expect(run).toEqual({ status: 'succeeded', kind: 'coa', trigger: 'cli' });
  });

  it('mirrors into the inactive connection named in the payload', async () => {
    const ledger = await h.newLedger();
    await seedLedger(h.db.sql, ledger.schema, { preset: 'small', seed: 4 });
    const active = await h.newConnection();
    const target = await h.newConnection({ active: false });
    const { job } = fakeJob({ connectionId: active, accountingConnectionId: target, trigger: 'migration' });
    const summary = await processCoaMirror(job, deps(ledger.erp));
    expect(summary.connectionId).toBe(target);
    const chart = await h.control<{ counts: Record<string, number> }>(
      'GET',
      `/__stub/chart?accounting_connection_id=${target}`,
    );
    expect(chart.counts.gl_accounts).toBe(summary.kinds.gl_account.created);
  });
});
