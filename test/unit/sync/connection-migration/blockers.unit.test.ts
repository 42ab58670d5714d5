import { PRECONDITIONS } from '@ledgersync/stub';
import { describe, expect, it } from 'vitest';
import {
  alreadyReady,
  type ConnectionFacts,
  describeBlocker,
  F7_PRECONDITIONS,
  noSeparateActive,
  notInactiveApi,
  otherMigrationHere,
  otherMigrationOnPlatform,
  preconditionOf,
  refusalBlocker,
} from '../../../../src/sync/connection-migration/blockers.ts';

const target: ConnectionFacts = {
  id: 'conn-new',
  remote_provider_name: 'New ERP',
  connection_type: 'API',
  is_active: false,
  is_ready_to_migrate: false,
};

describe('docs/platform.md F7: a ready-to-migrate refusal names its precondition', () => {
  it('by additional_info.precondition', () => {
    for (const name of F7_PRECONDITIONS) expect(preconditionOf({ precondition: name }, 'refused')).toBe(name);
  });

  it('by the wording of the message when additional_info is missing (the stub wording of each precondition)', () => {
    for (const [name, wording] of Object.entries(PRECONDITIONS)) {
      expect(preconditionOf(null, `422 DEVELOPER_7001: ready-to-migrate refused: ${wording}`)).toBe(name);
    }
    expect(preconditionOf({ precondition: 'something new' }, 'refused for another reason')).toBeNull();
  });

  it('each of the four preconditions gets its own message and its own fix', () => {
    const other = { ...target, id: 'conn-other', remote_provider_name: 'Other', is_ready_to_migrate: true };
    const blockers = F7_PRECONDITIONS.map((p) => refusalBlocker(p, target, 'refused', other));
    expect(blockers.map((b) => b.code)).toEqual([...F7_PRECONDITIONS]);
    expect(new Set(blockers.map((b) => b.message)).size).toBe(4);
    expect(new Set(blockers.map((b) => b.fix)).size).toBe(4);
    for (const b of blockers) expect(b.message).toContain('F7');
    expect(refusalBlocker(null, target, 'unexpected words').code).toBe('ready_refused');
    expect(refusalBlocker(null, target, 'unexpected words').message).toContain('unexpected words');
  });

  it('precondition 1 says why the connection does not qualify: active, or not an API connection', () => {
    expect(notInactiveApi({ ...target, is_active: true }).message).toContain('it is the active connection');
    expect(notInactiveApi({ ...target, connection_type: 'DIRECT' }).message).toContain(
      'it is a DIRECT connection, not an API one',
    );
    expect(notInactiveApi(target).fix).toContain('without --target');
  });

  it('precondition 2, 3 and 4 say what to do', () => {
    expect(noSeparateActive('conn-new').fix).toMatch(/re-link\) the current ERP connection/);
    expect(alreadyReady(target).fix).toContain('Switch Providers');
    const other = otherMigrationOnPlatform({ ...target, id: 'conn-other' });
    expect(other.fix).toContain('--target conn-other');
    const here = otherMigrationHere({
      id: '7',
      provider: 'First',
      state: 'preloaded',
      targetConnectionId: 'c-1',
    });
    expect(here.message).toBe(
      'Another migration is in progress: #7 to "First" (state preloaded, connection c-1); one migration at a time.',
    );
    expect(describeBlocker(here)).toMatch(
      /\nWhat to do: Finish it with `npx ledgersync migrate prepare --provider "First"`/,
    );
  });
});
