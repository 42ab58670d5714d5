import type { RunningStub } from '@ledgersync/stub';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../src/log.ts';
import { kindSpec, OBJECT_KINDS } from '../../../../src/sync/objects/kinds.ts';
import { planPage } from '../../../../src/sync/objects/plan-page.ts';
import { useTestRedis } from '../../../support/redis.ts';
import { addClient, control, startTestStub, testClient } from '../../platform/support/stub.ts';

/**
 * Every kind of the object-kind registry, read from the stub over HTTP the way a sync reads it
 * (docs/extending.md "Add an object kind"; test/unit/kind-wiring.unit.test.ts checks the tables):
 * the stub serves the kind's ready list, the items parse with the kind's schema, its steps build
 * only the ERP write kinds and sync types it declares, and the reads it declares (single read,
 * sync-button rows, reconcile's synced objects) are answered.
 */
const redis = useTestRedis();
let stub: RunningStub;
let client: ReturnType<typeof testClient>;

beforeAll(async () => {
  stub = await startTestStub();
  const credentials = await addClient(stub);
  await control(stub, 'POST', '/__stub/seed', {
    seed: 31,
    transactions: 20,
    reimbursements: 20,
    transfers: 20,
    cashbacks: 20,
    bills: 40,
    uncoded_fraction: 0,
    unknown_coding_fraction: 0,
  });
  client = testClient(stub, redis, credentials, silentLogger);
});

afterAll(async () => {
  await client?.close();
  await stub?.close();
});

describe.each(OBJECT_KINDS)('object kind %s, end to end against the stub', (kind) => {
  const spec = kindSpec(kind);

  it('F16: the stub serves its ready list; every item parses and plans into its own ERP kinds and sync types', async () => {
    const { values, failures } = await client.objects.ready(spec.list).collect();
    expect(failures).toEqual([]);
    expect(values.length).toBeGreaterThan(0);
    const plan = planPage(
      spec,
      values.map((value) => ({ ok: true, value })),
    );
    const writes = plan.items.flatMap((item) => ('write' in item ? [item.write] : []));
    expect(writes.length).toBeGreaterThan(0);
    for (const item of plan.items) expect(spec.syncTypes).toContain(item.syncType);
    for (const write of writes) expect(spec.erpKinds).toContain(write.kind);
  });

  it('G20, G28, G25: the reads it declares are answered: single read, sync-button rows, synced objects', async () => {
    const [first] = (await client.objects.ready(spec.list, { page_size: 2 }).collect()).values;
    if (spec.list.singleRead) expect((await client.objects.one(spec.list, first!.id)).id).toBe(first!.id);
    if (spec.syncButton)
      expect((await client.objects.ready(spec.list, { requestedToSync: true }).collect()).failures).toEqual(
        [],
      );
    expect((await client.objects.list(spec.list, spec.synced.query).collect()).failures).toEqual([]);
  });
});
