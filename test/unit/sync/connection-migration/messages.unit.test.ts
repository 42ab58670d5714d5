import { describe, expect, it } from 'vitest';
import { alreadyReady } from '../../../../src/sync/connection-migration/blockers.ts';
import { nextSteps } from '../../../../src/sync/connection-migration/next-steps.ts';
import {
  type Outstanding,
  outstandingBlocker,
} from '../../../../src/sync/connection-migration/outstanding.ts';
import { prepareText, statusText, stepLine } from '../../../../src/sync/connection-migration/report-text.ts';
import type { PrepareResult } from '../../../../src/sync/connection-migration/types.ts';

const outstanding: Outstanding = {
  total: 14,
  kinds: {
    transactions: {
      count: 12,
      more: false,
      items: [{ id: 't1', reason: 'Action needed: no GL account.' }, { id: 't2' }],
    },
    bills: { count: 1000, more: true, items: [{ id: 'b1' }] },
  },
  unsent: { batches: 1, rows: 1 },
  synced: true,
};

describe('what the migration runner says (docs/platform.md G30)', () => {
  it('lists outstanding objects one a line with the ERP reason, and what to do', () => {
    const blocker = outstandingBlocker(outstanding, 'API');
    expect(blocker.code).toBe('outstanding_objects');
    expect(blocker.message).toContain(
      '  transactions: 12\n    t1 — Action needed: no GL account.\n    t2\n    and 10 more',
    );
    expect(blocker.message).toContain('  bills: 1000+\n    b1\n    and 999+ more');
    expect(blocker.message).toContain('results not yet reported to the platform: 1 batches, 1 objects');
    expect(blocker.fix).toMatch(/^Fix what the ERP refused .*npx ledgersync sync all.*--force/);
  });

  it('docs/platform.md G25: a DIRECT connection being left cannot be synced by API, and says so', () => {
    expect(outstandingBlocker(outstanding, 'DIRECT').fix).toMatch(/^The current connection is DIRECT/);
  });

  it('next steps: Switch Providers, codings dropped, automations recreated, the new connection id', () => {
    const steps = nextSteps({ provider: 'New', targetId: 'c-2', backupFile: '/b/c-1.json' }).join('\n');
    expect(steps).toContain('Switch Providers → "New"');
    expect(steps).toContain('/b/c-1.json');
    expect(steps).toMatch(/Recreate automations/);
    expect(steps).toContain('set it to c-2');
  });

  it('prepare and status texts', () => {
    expect(stepLine({ step: 'create_target', detail: 'created' })).toBe('✓ create target: created');
    const result: PrepareResult = {
      outcome: 'ready',
      migrationId: '3',
      state: 'ready',
      sourceConnectionId: 'c-1',
      targetConnectionId: 'c-2',
      provider: 'New',
      backupFile: null,
      steps: [],
      blocker: null,
      notes: ['a note'],
      nextSteps: ['do this'],
    };
    expect(prepareText(result)).toBe(
      'a note\nMigration #3 is prepared: connection c-2 ("New") is ready to migrate.\nNext:\n  1. do this\n',
    );
    expect(statusText({ migration: null, source: null, target: null, readiness: 'none' })).toMatch(
      /^No migration has been prepared/,
    );
  });

  it('F37: a connection whose provider name is null is named by its id, never "null"', () => {
    const facts = { id: 'conn-9', connection_type: 'API', is_active: false, is_ready_to_migrate: true };
    expect(alreadyReady({ ...facts, remote_provider_name: 'Acme ERP' }).message).toContain(
      'conn-9 ("Acme ERP")',
    );
    const unnamed = alreadyReady({ ...facts, remote_provider_name: null }).message;
    expect(unnamed).toContain('conn-9');
    expect(unnamed).not.toMatch(/null|\(""\)/);
  });
});
