import { describe, expect, it } from 'vitest';
import { actionFor, SUBSCRIBED_EVENTS } from '../../../../src/server/webhooks/event-actions.ts';

const event = (type: string, object: Record<string, unknown> = { id: 'o1' }) => ({
  type,
  object: object as { id: string; sync_request_id?: string },
});

describe('webhook events → jobs (docs/platform.md G12, F21)', () => {
  it('*.ready_to_sync and bills.paid trigger the matching object sync', () => {
    expect(actionFor(event('transactions.ready_to_sync'))).toEqual({
      kind: 'sync',
      objectKind: 'transactions',
    });
    expect(actionFor(event('reimbursements.ready_to_sync'))).toEqual({
      kind: 'sync',
      objectKind: 'reimbursements',
    });
    expect(actionFor(event('bills.ready_to_sync'))).toEqual({ kind: 'sync', objectKind: 'bills' });
    expect(actionFor(event('bills.paid'))).toEqual({ kind: 'sync', objectKind: 'bills' });
  });

  it('docs/platform.md G28: *.sync_requested carries object.sync_request_id → sync button', () => {
    expect(actionFor(event('transactions.sync_requested', { id: 'r1', sync_request_id: 'r1' }))).toEqual({
      kind: 'sync_button',
      objectType: 'TRANSACTION',
      syncRequestId: 'r1',
    });
    expect(
      actionFor(event('reimbursements.sync_requested', { id: 'r2', sync_request_id: 'r2' })),
    ).toMatchObject({
      objectType: 'REIMBURSEMENT',
    });
    expect(actionFor(event('transactions.sync_requested', { id: 'r1' }))).toMatchObject({ kind: 'invalid' });
  });

  it('other events are acknowledged and ignored', () => {
    expect(actionFor(event('bills.created')).kind).toBe('ignore');
    expect(actionFor(event('transactions.cleared')).kind).toBe('ignore');
  });

  it('every subscribed event type leads to work', () => {
    for (const type of SUBSCRIBED_EVENTS) {
      expect(actionFor(event(type, { id: 'x', sync_request_id: 'x' })).kind).not.toBe('ignore');
    }
  });
});
