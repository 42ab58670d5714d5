import { describe, expect, it } from 'vitest';
import type { ApiError } from '../../../src/core/errors.ts';
import { Faults } from '../../../src/faults.ts';
import { checkUploadBatch } from '../../../src/rules/batch.ts';
import { assertReadyToMigrate } from '../../../src/rules/migration.ts';
import { readyFor } from '../../../src/rules/sync-marking.ts';
import { Connections } from '../../../src/world/connections.ts';
import {
  B_ALL_SYNCED,
  B_BILL_SYNCED,
  B_NOT_SYNCED,
  FLAG_PAID,
  ObjectStore,
} from '../../../src/world/object-store.ts';

function thrown(fn: () => void): ApiError {
  try {
    fn();
  } catch (err) {
    return err as ApiError;
  }
  throw new Error('did not throw');
}

describe('stub rules', () => {
  it('F12: checkUploadBatch: duplicates of existing ids are 7020 naming them', () => {
    const err = thrown(() => checkUploadBatch('vendors', ['a', 'b', 'c'], (id) => id !== 'b', new Faults()));
    expect(err.code).toBe('DEVELOPER_7020');
    expect(err.additionalInfo.duplicate_ids).toEqual(['a', 'c']);
  });

  it('checkUploadBatch: repeats inside a batch and platform-refused ids are 422 naming the items', () => {
    expect(
      thrown(() => checkUploadBatch('x', ['a', 'a'], () => false, new Faults())).additionalInfo.items,
    ).toEqual([{ index: 1, id: 'a', reason: 'repeats item 0' }]);
    const faults = new Faults();
    faults.configure({ reject_remote_ids: ['b'] }, 0);
    expect(thrown(() => checkUploadBatch('x', ['a', 'b'], () => false, faults)).status).toBe(422);
  });

  it('F7: ready-to-migrate preconditions in order', () => {
    const connections = new Connections();
    const now = new Date(0).toISOString();
    const target = connections.create({ remote_provider_name: 'New', is_active: false }, now).connection;
    expect(thrown(() => assertReadyToMigrate(connections, target)).additionalInfo.precondition).toBe(
      'active_connection_exists',
    );
    const active = connections.create({ remote_provider_name: 'Old' }, now).connection;
    expect(thrown(() => assertReadyToMigrate(connections, active)).additionalInfo.precondition).toBe(
      'inactive_api_connection',
    );
    expect(() => assertReadyToMigrate(connections, target)).not.toThrow();
  });

  it('bill decision table (docs/platform.md G23): which sync type each bill state accepts', () => {
    const bills = new ObjectStore('bill');
    const states: Array<[number, number]> = [
      [B_NOT_SYNCED, 0],
      [B_NOT_SYNCED, FLAG_PAID],
      [B_BILL_SYNCED, FLAG_PAID],
      [B_BILL_SYNCED, 0],
      [B_ALL_SYNCED, FLAG_PAID],
    ];
    bills.append(states.length, (i) => ({ status: states[i]![0], flags: states[i]![1], syncedAt: 0 }));
    const table = states.map((_, i) => [
      readyFor(bills, i, 'BILL_SYNC').ok,
      readyFor(bills, i, 'BILL_PAYMENT_SYNC').ok,
    ]);
    expect(table).toEqual([
      [true, false], // NOT_SYNCED + OPEN: BILL_SYNC only
      [true, false], // NOT_SYNCED + PAID: BILL_SYNC first, then payment
      [false, true], // BILL_SYNCED + PAID: BILL_PAYMENT_SYNC only
      [false, false], // BILL_SYNCED + OPEN: wait for payment
      [false, false], // BILL_AND_PAYMENT_SYNCED: done
    ]);
    expect([0, 1, 2, 3, 4].map((i) => bills.ready.has(i))).toEqual([true, true, true, false, false]);
  });
});
