import { describe, expect, it } from 'vitest';
import { migrationSection } from '../../../../src/server/index.ts';
import { connectionLockNames } from '../../../../src/sync/connection-migration/lock-names.ts';
import type { MigrationProgress } from '../../../../src/sync/connection-migration/progress.ts';
import { progressLines, restoreText } from '../../../../src/sync/connection-migration/report-text.ts';
import type { RestoreResult } from '../../../../src/sync/connection-migration/restore.ts';
import { STEPS } from '../../../../src/sync/connection-migration/states.ts';
import { objectSyncLockName } from '../../../../src/sync/objects/index.ts';

function progress(over: Partial<MigrationProgress>): MigrationProgress {
  return {
    id: '3',
    provider: 'New ERP',
    state: 'target_created',
    phase: 'in_progress',
    steps: STEPS.map((step, i) => ({ step, done: i < 3 })),
    done: 3,
    total: 6,
    nextStep: 'preload',
    running: true,
    sourceConnectionId: 'c-old',
    targetConnectionId: 'c-new',
    startedAt: '2026-01-05T10:00:00.000Z',
    updatedAt: '2026-01-05T10:02:00.000Z',
    readyAt: null,
    finishedAt: null,
    lastError: null,
    job: null,
    ...over,
  };
}

describe('where a migration stands, as status says it (docs/platform.md G30, G31)', () => {
  it('in progress: the state, steps done of six, the step running now, and its job', () => {
    const lines = progressLines(
      progress({
        job: {
          id: '12',
          state: 'active',
          attemptsMade: 1,
          progress: { step: 'create_target', detail: 'inactive API connection c-new created' },
          failedReason: null,
          enqueuedAt: '2026-01-05T09:59:00.000Z',
        },
      }),
    );
    expect(lines).toEqual([
      'Migration #3 to "New ERP": target_created, 3 of 6 steps done (running: preload), updated 2026-01-05T10:02:00.000Z.',
      '  job 12: active, attempt 2; last step: inactive API connection c-new created',
    ]);
  });

  it('stopped: not running, and the first line of why', () => {
    const lines = progressLines(
      progress({ running: false, lastError: 'check: 4 objects are still waiting\n  bills: 4' }),
    );
    expect(lines[0]).toMatch(/3 of 6 steps done \(next: preload\); not running now, updated/);
    expect(lines[1]).toBe(
      '  stopped: check: 4 objects are still waiting (`migrate status` has the whole message)',
    );
  });

  it('ready, switched and abandoned each in one line', () => {
    expect(
      progressLines(progress({ phase: 'ready', state: 'ready', readyAt: '2026-01-05T11:00:00.000Z' })),
    ).toEqual([
      'Migration #3 to "New ERP": ready to migrate since 2026-01-05T11:00:00.000Z; waiting for the customer to switch to connection c-new in the platform.',
    ]);
    expect(
      progressLines(
        progress({ phase: 'switched', state: 'switched', finishedAt: '2026-01-06T08:00:00.000Z' }),
      ),
    ).toEqual([
      'Migration #3 to "New ERP": switched 2026-01-06T08:00:00.000Z; connection c-new is synced now, c-old is left as it was.',
    ]);
    expect(progressLines(progress({ phase: 'abandoned', state: 'abandoned' }))).toEqual([
      'Migration #3 to "New ERP": abandoned.',
    ]);
  });

  it('the status page shows the same, escaped, with the steps ticked off', () => {
    const page = migrationSection(progress({ provider: '<b>ERP</b>' }))!.toString();
    expect(page).toContain('Migration #3 to &quot;&lt;b&gt;ERP&lt;/b&gt;&quot;');
    expect(page).toContain('data-phase="in_progress"');
    expect(page).toContain('<li class="ok">✓ create target</li>');
    expect(page).toContain('<li class="attention">· preload</li>');
    expect(migrationSection(null)).toBe('');
  });
});

describe('what migrate restore says (docs/platform.md F12)', () => {
  const restored: RestoreResult = {
    outcome: 'incomplete',
    connectionId: 'c-new',
    backup: {
      origin: 'file',
      file: '/b/c-old.json',
      migrationId: '3',
      connectionId: 'c-old',
      takenAt: '2026-01-05T10:01:00.000Z',
      sha256: 'ab',
      counts: {},
    },
    found: { gl_account: 2 },
    kinds: {
      gl_account: {
        created: 5,
        adopted: 1,
        unchanged: 2,
        updated: 0,
        deactivated: 0,
        reactivated: 0,
        hidden: 1,
        failed: 1,
      },
    },
    skipped: [{ list: 'vendors', id: 'v-9', reason: 'name: Required' }],
    failures: [{ kind: 'gl_account', remoteId: 'gl-7', action: 'create', reason: 'name too long' }],
    writeCalls: 3,
    notes: [],
  };

  it('per list, then what was skipped and refused, and what to do', () => {
    const text = restoreText(restored);
    expect(text).toContain(
      'Restored in part: the chart backed up from connection c-old on 2026-01-05T10:01:00.000Z (/b/c-old.json) onto connection c-new, 3 write calls.',
    );
    expect(text).toContain(
      '  gl account: 5 created, 1 already there (adopted), 1 hidden, 2 unchanged, 1 refused',
    );
    expect(text).toContain('Not restored, as the backup holds them (1):\n  vendors v-9: name: Required');
    expect(text).toContain('Refused by the platform (1):\n  gl_account gl-7 (create): name too long');
    expect(text).toMatch(/What to do: .*run the same restore again/);
  });

  it('busy: nothing done, and when to try again', () => {
    expect(restoreText({ ...restored, outcome: 'busy' })).toMatch(
      /being written by another run .* nothing was done/,
    );
  });
});

describe('the locks a switch holds', () => {
  it('one per object kind and the chart mirror of the connection left', () => {
    expect(objectSyncLockName('c-1', 'bills')).toBe('ledgersync:sync:c-1:bills');
    expect(connectionLockNames('c-1')).toEqual([
      'ledgersync:sync:c-1:transactions',
      'ledgersync:sync:c-1:reimbursements',
      'ledgersync:sync:c-1:transfers',
      'ledgersync:sync:c-1:cashbacks',
      'ledgersync:sync:c-1:bills',
      'ledgersync:coa-mirror:c-1',
    ]);
  });
});
