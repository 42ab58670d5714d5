import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RunningStub } from '@ledgersync/stub';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DirectConnectionError,
  DuplicateUploadError,
  IdempotencyConflictError,
  ValidationError,
} from '../../../src/platform/errors.ts';
import { okValues } from '../../../src/platform/parse.ts';
import { KIND_SPECS } from '../../../src/sync/objects/index.ts';
import { useTestRedis } from '../../support/redis.ts';
import { capturingLogger } from './support/capture-log.ts';
import { addClient, type Credentials, control, startTestStub, testClient } from './support/stub.ts';

const redis = useTestRedis();
const captured = capturingLogger();
let stub: RunningStub;
let credentials: Credentials;
let client: ReturnType<typeof testClient>;

beforeAll(async () => {
  stub = await startTestStub();
  credentials = await addClient(stub);
  await control(stub, 'POST', '/__stub/seed', { seed: 7, transactions: 30, entities: 2, vendors: 3 });
  client = testClient(stub, redis, credentials, captured.log);
});

afterAll(async () => {
  await client?.close();
  await stub?.close();
});

describe('accounting connection (docs/platform.md F6)', () => {
  it('F6: creates a connection, reads it back, lists all', async () => {
    const created = await client.connection.create({ remote_provider_name: 'Ledger ERP' });
    expect(created).toMatchObject({
      is_active: true,
      connection_type: 'API',
      remote_provider_name: 'Ledger ERP',
    });
    expect((await client.connection.getActive())?.id).toBe(created.id);
    expect((await client.connection.get(created.id))?.id).toBe(created.id);
    expect(await client.connection.get('no-such-connection')).toBeNull();
    const all = okValues(await client.connection.all());
    expect(all.map((c) => c.id)).toContain(created.id);
    const again = await client.connection.create({ remote_provider_name: 'Ledger ERP' });
    expect(again.id).toBe(created.id);
  });
});

describe('chart of accounts (docs/platform.md F8-F13)', () => {
  it('F8, F12: uploads GL accounts, lists, patches and deactivates them', async () => {
    const uploaded = await client.chart.uploadGlAccounts({
      gl_accounts: [
        { id: 'gl-1000', name: 'Cash', classification: 'ASSET', code: '1000' },
        { id: 'gl-6000', name: 'Travel', classification: 'EXPENSE', code: '' },
      ],
    });
    const accounts = okValues(uploaded.items);
    expect(accounts.map((a) => a.id)).toEqual(['gl-1000', 'gl-6000']);
    expect(uploaded.accountingConnectionId).toBeTruthy();
    const cash = accounts[0]!;
    const patched = await client.chart.patchGlAccount(cash.svc_id, { name: 'Cash at bank' });
    expect(patched.name).toBe('Cash at bank');
    await client.chart.deleteGlAccount(cash.svc_id);
    const inactive = await client.chart.listGlAccounts({ is_active: false }).collect();
    expect(inactive.values.map((a) => a.id)).toContain('gl-1000');
  });

  it('F12: a remote id that already exists is a DuplicateUploadError naming it', async () => {
    const upload = client.chart.uploadGlAccounts({
      gl_accounts: [
        { id: 'gl-1000', name: 'Cash again', classification: 'ASSET' },
        { id: 'gl-7000', name: 'Meals', classification: 'EXPENSE' },
      ],
    });
    await expect(upload).rejects.toBeInstanceOf(DuplicateUploadError);
    await expect(upload).rejects.toMatchObject({ duplicateIds: ['gl-1000'], status: 400, retryable: false });
  });

  it('checks a body before spending a request on it (ValidationError, no status)', async () => {
    const before = client.stats().limiter.permitsGranted;
    await expect(client.chart.uploadGlAccounts({ gl_accounts: [] })).rejects.toBeInstanceOf(ValidationError);
    expect(client.stats().limiter.permitsGranted).toBe(before);
  });

  it('F9, F10: a field, its options, list by field, PUT an option', async () => {
    const field = (await client.chart.createField({
      id: 'dept',
      name: 'Department',
      input_type: 'SINGLE_CHOICE',
    }))!;
    const options = await client.chart.uploadFieldOptions({
      field_id: field.svc_id,
      options: [
        { id: 'd-1', value: 'Sales' },
        { id: 'd-2', value: 'Ops', code: 'OPS' },
      ],
    });
    expect(okValues(options.items).map((o) => o.id)).toEqual(['d-1', 'd-2']);
    const listed = await client.chart.listFieldOptions({ field_id: field.svc_id }).collect();
    expect(listed.values.map((o) => o.value).sort()).toEqual(['Ops', 'Sales']);
    const sales = okValues(options.items)[0]!;
    const put = await client.chart.putFieldOption(sales.svc_id, { value: 'Sales EU' });
    expect(put.value).toBe('Sales EU');
    const byRemote = await client.chart.listFieldOptions({ field_remote_id: 'dept' }).collect();
    expect(byRemote.values).toHaveLength(2);
  });

  it('F11: accounting vendors upload, list and patch', async () => {
    const uploaded = await client.chart.uploadVendors({ vendors: [{ id: 'v-1', name: 'Acme' }] });
    const [acme] = okValues(uploaded.items);
    expect(acme).toMatchObject({ id: 'v-1', name: 'Acme', is_active: true });
    const patched = await client.chart.patchVendor(acme!.svc_id, { code: 'ACME' });
    expect(patched.code).toBe('ACME');
    const listed = await client.chart.listVendors().collect();
    expect(listed.values.map((v) => v.id)).toContain('v-1');
  });

  it('F13: tax rates (negative allowed), the tax code, its options', async () => {
    const rates = await client.chart.uploadTaxRates({
      tax_rates: [
        { id: 'vat-20', name: 'VAT 20%', rate: '0.2', accounting_gl_account_id: 'gl-6000' },
        { id: 'rc-20', name: 'Reverse charge', rate: '-0.2', accounting_gl_account_id: 'gl-6000' },
      ],
    });
    expect(okValues(rates.items)).toHaveLength(2);
    const code = await client.chart.createTaxCode({ name: 'Tax code' });
    expect(code?.svc_id).toBeTruthy();
    expect((await client.chart.getTaxCode())?.svc_id).toBe(code?.svc_id);
    const options = await client.chart.uploadTaxCodeOptions({
      options: [{ id: 'tc-std', name: 'Standard', tax_rate_ids: ['vat-20'] }],
    });
    expect(okValues(options.items).map((o) => o.id)).toEqual(['tc-std']);
    expect((await client.chart.listTaxRates().collect()).values).toHaveLength(2);
  });
});

describe('reads: entities, platform vendors, ready objects (F16)', () => {
  it('lists and fetches entities', async () => {
    const { values, failures } = await client.entities.list().collect();
    expect(failures).toEqual([]);
    expect(values.length).toBe(2);
    expect((await client.entities.get(values[0]!.id)).id).toBe(values[0]!.id);
  });

  it('links a platform vendor to an accounting vendor', async () => {
    const { values } = await client.vendors.list().collect();
    expect(values.length).toBeGreaterThan(0);
    const linked = await client.vendors.linkAccountingVendor(values[0]!.id, 'v-1');
    expect(linked.accounting_vendor_remote_id).toBe('v-1');
  });

  it('F16: ready transactions parse, and a single one can be re-read', async () => {
    const { values, failures } = await client.objects.ready(KIND_SPECS.transactions.list).collect();
    expect(failures).toEqual([]);
    expect(values.length).toBeGreaterThan(0);
    expect(values.every((t) => t.sync_status === 'SYNC_READY')).toBe(true);
    expect((await client.objects.one(KIND_SPECS.transactions.list, values[0]!.id)).id).toBe(values[0]!.id);
    const bills = await client.objects.ready(KIND_SPECS.bills.list).collect();
    expect(bills.failures).toEqual([]);
  });
});

describe('syncs (docs/platform.md F14, F15, F19)', () => {
  it('F14, F15: posts results once; the same key and body replays; another body is a conflict', async () => {
    const { values } = await client.objects.ready(KIND_SPECS.transactions.list, { page_size: 2 }).collect();
    const [first, second] = values;
    const body = {
      idempotency_key: 'resources-sync-1',
      sync_type: 'TRANSACTION_SYNC' as const,
      successful_syncs: [{ id: first!.id, reference_id: 'JE-1' }],
      failed_syncs: [{ id: second!.id, error: { message: 'Action needed: map the GL account' } }],
    };
    const outcome = await client.syncs.postResults(body);
    expect(outcome.alreadyApplied).toBe(false);
    const answer = outcome.answer!;
    expect(okValues(answer.results).map((r) => r.status)).toEqual(['SYNCED', 'FAILED']);
    const again = await client.syncs.postResults(body);
    expect(again.answer?.sync_id).toBe(answer.sync_id);
    const conflict = client.syncs.postResults({
      ...body,
      successful_syncs: [{ id: first!.id, reference_id: 'JE-2' }],
    });
    await expect(conflict).rejects.toBeInstanceOf(IdempotencyConflictError);
  });

  it('F19: marks transactions ready to sync', async () => {
    const { values } = await client.objects
      .list(KIND_SPECS.transactions.list, { sync_status: 'NOT_SYNC_READY' })
      .collect();
    if (values.length === 0) return;
    await client.syncs.markReadyToSync({ object_type: 'TRANSACTION', object_ids: [values[0]!.id] });
    expect((await client.objects.one(KIND_SPECS.transactions.list, values[0]!.id)).sync_status).toBe(
      'SYNC_READY',
    );
  });

  it('F2: a direct connection refuses sync marking with DirectConnectionError', async () => {
    await control(stub, 'POST', '/__stub/connections', { connection_type: 'DIRECT', is_active: true });
    const post = client.syncs.postResults({
      idempotency_key: 'resources-direct-1',
      sync_type: 'TRANSACTION_SYNC',
      failed_syncs: [{ id: 'x', error: { message: 'Temporary: retry later' } }],
    });
    await expect(post).rejects.toBeInstanceOf(DirectConnectionError);
    await control(stub, 'POST', '/__stub/connections', { connection_type: 'API', is_active: true });
  });
});

describe('webhooks (docs/platform.md F20, F21)', () => {
  let receiver: Server;
  const challenges: string[] = [];
  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk) => {
        raw += chunk;
      });
      req.on('end', () => {
        const body = JSON.parse(raw || '{}') as { challenge?: string };
        if (body.challenge) challenges.push(body.challenge);
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => receiver.close(resolve));
  });

  it('F20: subscribes, receives the challenge and verifies it', async () => {
    const port = (receiver.address() as AddressInfo).port;
    const subscription = await client.webhooks.subscribe({
      endpoint_url: `http://127.0.0.1:${port}/webhooks`,
      event_types: ['transactions.ready_to_sync'],
    });
    expect(subscription.status).toBe('pending_verification');
    expect(subscription.secret).toBeTruthy();
    await expect.poll(() => challenges.length, { timeout: 5_000 }).toBeGreaterThan(0);
    const verified = await client.webhooks.verify(subscription.id, challenges[0]!);
    expect(verified.success).toBe(true);
  });
});

describe('logs', () => {
  it('nothing secret reaches the log', () => {
    const text = captured.text();
    expect(text).not.toContain(credentials.clientSecret);
    expect(text).not.toMatch(/svc_business_tok_[A-Za-z0-9]/);
  });
});
