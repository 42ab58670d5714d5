import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.ts';
import { useTestRedis } from '../support/redis.ts';
import { useSyncWorld, worldEnv } from '../support/sync-world.ts';

/**
 * Upload answers without their item list, through the real binary (docs/platform.md F41): both
 * published copies make the list optional, so `{uploaded: [ids]}` and `{}` answer an upload that
 * took effect. The items they leave out are settled by reading the collection: `sync coa`
 * completes, every item is recorded with its platform id, and the next run uploads nothing.
 */
const world = useSyncWorld();
const redis = useTestRedis();

const cli = (...args: string[]) => runCli(args, { ...worldEnv(world, redis) });
const lastJson = <T>(stdout: string): T => JSON.parse(stdout.trim().split('\n').at(-1)!) as T;

interface KindSummary {
  created: number;
  adopted: number;
  failed: { remoteId: string; reason: string }[];
}
interface MirrorSummary {
  connectionId: string;
  kinds: Record<string, KindSummary>;
  writeCalls: number;
}
interface Arrival {
  method: string;
  route: string;
}
interface ChartItem {
  id: string;
  svc_id: string;
}
interface StubChart {
  gl_accounts: ChartItem[];
  fields: (ChartItem & { options: ChartItem[] })[];
  vendors: ChartItem[];
  tax_rates: ChartItem[];
  tax_code: ChartItem | null;
  tax_code_options: ChartItem[];
}

const UPLOADS = [
  '/accounting/accounts',
  '/accounting/fields',
  '/accounting/field-options',
  '/accounting/vendors',
  '/accounting/tax/rates',
  '/accounting/tax/code',
  '/accounting/tax/code/options',
];

/** The chart the platform holds for a connection, as `kind remote_id → svc_id`. */
async function platformChart(connectionId: string): Promise<Map<string, string>> {
  const chart = await world.control<StubChart>(
    'GET',
    `/__stub/chart?accounting_connection_id=${connectionId}`,
  );
  const held = new Map<string, string>();
  const add = (kind: string, items: ChartItem[], parent = '') => {
    for (const item of items) held.set(`${kind} ${parent}${item.id}`, item.svc_id);
  };
  add('gl_account', chart.gl_accounts);
  add('field', chart.fields);
  for (const field of chart.fields) add('field_option', field.options, `${field.id}/`);
  add('vendor', chart.vendors);
  add('tax_rate', chart.tax_rates);
  add('tax_code_field', chart.tax_code ? [chart.tax_code] : []);
  add('tax_code_option', chart.tax_code_options);
  return held;
}

/** What the mirror recorded for a connection, in the same form. */
async function recorded(connectionId: string): Promise<Map<string, string | null>> {
  const rows = await world.db.sql<
    { kind: string; parent_remote_id: string; remote_id: string; svc_id: string | null }[]
  >`
    select kind, parent_remote_id, remote_id, svc_id from id_map where connection_id = ${connectionId}`;
  return new Map(
    rows.map((r) => [
      `${r.kind} ${r.parent_remote_id ? `${r.parent_remote_id}/` : ''}${r.remote_id}`,
      r.svc_id,
    ]),
  );
}

async function uploadCalls(since: number): Promise<{ calls: Arrival[]; next: number }> {
  const effects = await world.control<{ arrivals: Arrival[]; next: { arrivals_since: number } }>(
    'GET',
    `/__stub/effects?include=arrivals&limit=100000&arrivals_since=${since}`,
  );
  const calls = effects.arrivals.filter((a) => a.method === 'POST' && UPLOADS.includes(a.route));
  return { calls, next: effects.next.arrivals_since };
}

describe('sync coa when upload answers leave out their items (docs/platform.md F41)', () => {
  for (const mode of ['ids_only', 'empty'] as const) {
    it(`F41: every upload answered ${mode}: exit 0, every item recorded with its svc_id, the next run uploads nothing`, async () => {
      // A connection of its own, so the whole chart is uploaded under this answer shape.
      const connection = await world.control<{ id: string }>('POST', '/__stub/connections', {
        remote_provider_name: `Built-in ledger (${mode})`,
      });
      await world.control('PUT', '/__stub/faults', { upload_answers: { '*': mode } });
      try {
        const start = (await uploadCalls(0)).next;
        const first = await cli('sync', 'coa', '--json');
        expect(first.code, first.stderr).toBe(0);
        const [summary] = lastJson<MirrorSummary[]>(first.stdout);
        expect(summary?.connectionId).toBe(connection.id);
        const kinds = Object.entries(summary!.kinds);
        expect(
          kinds.flatMap(([kind, k]) => k.failed.map((f) => `${kind} ${f.remoteId}: ${f.reason}`)),
        ).toEqual([]);
        const uploads = await uploadCalls(start);
        // Every upload route was met with the cut answer (the world's chart has every kind).
        expect(new Set(uploads.calls.map((c) => c.route))).toEqual(new Set(UPLOADS));

        // Recorded: exactly what the platform holds, each under the svc_id the platform gave it.
        const held = await platformChart(connection.id);
        expect(held.size).toBeGreaterThan(UPLOADS.length);
        expect(await recorded(connection.id)).toEqual(held);
        expect(kinds.reduce((n, [, k]) => n + k.created, 0)).toBe(held.size);

        const again = await cli('sync', 'coa', '--json');
        expect(again.code, again.stderr).toBe(0);
        expect((await uploadCalls(uploads.next)).calls).toEqual([]);
        const [second] = lastJson<MirrorSummary[]>(again.stdout);
        expect(Object.values(second!.kinds).reduce((n, k) => n + k.created + k.adopted, 0)).toBe(0);
        expect(await platformChart(connection.id)).toEqual(held);
      } finally {
        await world.control('PUT', '/__stub/faults', {});
      }
    });
  }
});
