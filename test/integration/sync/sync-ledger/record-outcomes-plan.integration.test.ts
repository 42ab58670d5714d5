import postgres, { type Notice, type Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Outcome, recordOutcomes } from '../../../../src/sync/sync-ledger/outcomes.ts';
import { useTestDatabase } from '../../../support/db.ts';

const db = useTestDatabase();
const connectionId = 'conn-outcomes';
const syncType = 'TRANSACTION_SYNC';
/** Results a long bulk sync has already reported: what makes the statistics say PENDING is rare. */
const REPORTED = 20_000;
const PAGE = 100;

/** A connection of its own whose notices (auto_explain's plans, at client_min_messages = log) are kept. */
let explained: Sql;
const notices: Notice[] = [];

beforeAll(async () => {
  await db.sql`
    insert into sync_ledger (connection_id, object_id, sync_type, state, outcome)
    select ${connectionId}, 'txn_' || lpad(g::text, 6, '0'), ${syncType}, 'REPORTED', 'success'
    from generate_series(1, ${REPORTED}) g`;
  await db.sql`analyze sync_ledger`;
  explained = postgres(db.url, {
    max: 1,
    onnotice: (notice) => void notices.push(notice),
    connection: { search_path: db.schema },
  });
});

afterAll(async () => {
  await explained?.end({ timeout: 5 });
});

/** A page of claimed rows, as claimRows leaves them before the ERP call. */
async function claimPage(page: number): Promise<string[]> {
  const ids = Array.from({ length: PAGE }, (_, i) => `new_${page}_${String(i).padStart(3, '0')}`);
  await db.sql`
    insert into sync_ledger (connection_id, object_id, sync_type, state)
    select ${connectionId}, id, ${syncType}, 'PENDING' from unnest(${db.sql.array(ids)}::text[]) as id`;
  return ids;
}

interface PlanNode {
  'Node Type': string;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

/**
 * Records a page's outcomes with auto_explain on, in the plan mode given, and returns the plan
 * PostgreSQL ran. Skipped (null) on a server without auto_explain.
 */
async function recordExplained(ids: string[], mode: 'force_custom_plan' | 'force_generic_plan') {
  const outcomes: Outcome[] = ids.map((objectId, i) =>
    i % 10 === 0
      ? { objectId, ok: false, category: 'user_actionable', message: 'The GL account is closed.' }
      : { objectId, ok: true, referenceId: `JE-${i}`, deepLinkUrl: `http://books.example/entries/${i}` },
  );
  notices.length = 0;
  // One connection (max: 1), so the settings hold for the statement; all are reset after it.
  const loaded = await explained`load 'auto_explain'`.then(
    () => true,
    () => false,
  );
  if (!loaded) return null;
  await explained.unsafe(`set plan_cache_mode = ${mode}`);
  await explained.unsafe('set auto_explain.log_min_duration = 0');
  await explained.unsafe('set auto_explain.log_analyze = on');
  await explained.unsafe("set auto_explain.log_format = 'json'");
  await explained.unsafe('set client_min_messages = log');
  try {
    const recorded = await recordOutcomes(explained, connectionId, syncType, outcomes);
    const plan = notices
      .map((n) => String(n.message ?? ''))
      .filter((m) => m.includes('"Plan"') && m.includes('update sync_ledger'))
      .map((m) => JSON.parse(m.slice(m.indexOf('{'))) as { Plan: PlanNode })[0];
    return { recorded, plan };
  } finally {
    await explained.unsafe(
      'reset client_min_messages; reset auto_explain.log_min_duration; reset plan_cache_mode',
    );
  }
}

describe('recording a page of outcomes reads its arrays once (docs/decisions.md, "Tables that grow are read through their keys")', () => {
  for (const mode of ['force_custom_plan', 'force_generic_plan'] as const) {
    it(`the outcomes are unnested once, whatever the statistics say of PENDING rows (${mode})`, async (ctx) => {
      const ids = await claimPage(mode === 'force_custom_plan' ? 1 : 2);
      const result = await recordExplained(ids, mode);
      if (result === null) return ctx.skip('this PostgreSQL has no auto_explain');
      expect(result.recorded).toBe(PAGE);
      expect(result.plan).toBeDefined();
      const scans = nodes(result.plan!.Plan).filter((n) => n['Node Type'] === 'Function Scan');
      expect(scans.length).toBeGreaterThan(0);
      // Joined bare, the planner expected one PENDING row and unnested the arrays once per row found.
      for (const scan of scans) expect(scan['Actual Loops']).toBe(1);
      const rows = await db.sql<{ state: string; n: number }[]>`
        select state, count(*)::int as n from sync_ledger
        where connection_id = ${connectionId} and object_id = any(${db.sql.array(ids)}::text[])
        group by state order by state`;
      expect(rows).toEqual([
        { state: 'FAILED', n: PAGE / 10 },
        { state: 'IN_ERP', n: PAGE - PAGE / 10 },
      ]);
    });
  }
});
