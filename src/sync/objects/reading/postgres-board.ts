import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Sql } from 'postgres';
import type { DateRange } from './date-range.ts';
import type { PageOrder } from './page-order.ts';
import {
  boundAfterCut,
  type HeldRange,
  type Progress,
  type RangeBoard,
  type RangeRow,
  resumedRange,
} from './range-board.ts';

/**
 * A reader that has not reported a page for this long is taken for dead: its range goes to the
 * next reader that asks (read again from its start; the sync ledger skips what was done).
 */
const STALE_READER_MS = 60_000;

/** This process's name on a board: host, pid and a nonce. */
export function readerName(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}

/** True when `reader` names a reader of this process. */
function isThisProcess(reader: string): boolean {
  const [host, pid] = reader.split(':');
  return host === hostname() && Number(pid) === process.pid;
}

interface RangeRecord {
  id: number;
  filter_from: string | null;
  filter_to: string | null;
  bound_from: string | null;
  bound_to: string | null;
  state: RangeRow['state'];
  reader: string | null;
  position: string | null;
  items: number;
  wanted_by: string | null;
}

const ms = (v: string | null) => (v === null ? null : Number(v));

function toRow(r: RangeRecord): RangeRow {
  return {
    id: r.id,
    filter: { from: ms(r.filter_from), to: ms(r.filter_to) },
    bound: { from: ms(r.bound_from), to: ms(r.bound_to) },
    state: r.state,
    reader: r.reader,
    position: ms(r.position),
    items: r.items,
    wantedBy: r.wanted_by,
  };
}

const held = (row: RangeRow): HeldRange => ({ id: row.id, filter: row.filter, bound: row.bound });

export interface JoinableRun {
  connectionId: string;
  kind: string;
  runId: string;
  starter: string;
}

/**
 * The board of a run in PostgreSQL, shared by every worker process of the connection (tables
 * read_runs and read_ranges). Changes that add ranges lock the run's row, so two readers cutting
 * at once cut different ranges; claims skip rows another reader is claiming.
 */
export class PostgresBoard implements RangeBoard {
  private cachedOrder: PageOrder | null = null;
  private cachedTrust = true;

  private constructor(
    private readonly sql: Sql,
    readonly runId: string,
    private readonly staleMs = STALE_READER_MS,
  ) {}

  /** A new run of (connection, kind), replacing the last one's plan. */
  static async begin(sql: Sql, connectionId: string, kind: string, starter: string): Promise<PostgresBoard> {
    const runId = `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
    await sql.begin(async (tx) => {
      await tx`delete from read_runs where connection_id = ${connectionId} and kind = ${kind}`;
      await tx`
        insert into read_runs (connection_id, kind, run_id, starter, state)
        values (${connectionId}, ${kind}, ${runId}, ${starter}, 'reading')`;
    });
    return new PostgresBoard(sql, runId);
  }

  /** Runs another process started that still have something to read. */
  static async joinable(sql: Sql): Promise<JoinableRun[]> {
    const rows = await sql<{ connection_id: string; kind: string; run_id: string; starter: string }[]>`
      select r.connection_id, r.kind, r.run_id, r.starter from read_runs r
       where r.state = 'reading' and r.page_order is not null
         and exists (select 1 from read_ranges g where g.run_id = r.run_id and g.state <> 'done')`;
    return rows
      .filter((r) => !isThisProcess(r.starter))
      .map((r) => ({ connectionId: r.connection_id, kind: r.kind, runId: r.run_id, starter: r.starter }));
  }

  static join(sql: Sql, runId: string): PostgresBoard {
    return new PostgresBoard(sql, runId);
  }

  /** The run is over: nobody joins it any more. */
  async end(): Promise<void> {
    await this.sql`update read_runs set state = 'done' where run_id = ${this.runId}`;
  }

  async order(): Promise<PageOrder | null> {
    if (this.cachedOrder) return this.cachedOrder;
    const [run] = await this.sql<{ page_order: PageOrder | null; trusted: boolean }[]>`
      select page_order, trusted from read_runs where run_id = ${this.runId}`;
    this.cachedOrder = run?.page_order ?? null;
    this.cachedTrust = run?.trusted ?? false;
    return this.cachedOrder;
  }

  async trusted(): Promise<boolean> {
    return this.cachedTrust;
  }

  async distrust(): Promise<void> {
    this.cachedTrust = false;
    await this.sql`update read_runs set trusted = false where run_id = ${this.runId}`;
  }

  async start(reader: string, range: DateRange): Promise<HeldRange> {
    const [row] = await this.sql<RangeRecord[]>`
      insert into read_ranges (run_id, id, filter_from, filter_to, bound_from, bound_to, state, reader)
      values (${this.runId}, 0, ${range.from}, ${range.to}, ${range.from}, ${range.to}, 'reading', ${reader})
      returning *`;
    return held(toRow(row!));
  }

  async plan(order: PageOrder | null, ranges: readonly DateRange[]): Promise<void> {
    await this.sql.begin(async (tx) => {
      await tx`select 1 from read_runs where run_id = ${this.runId} for update`;
      if (order) await tx`update read_runs set page_order = ${order} where run_id = ${this.runId}`;
      await this.insertOpen(tx as unknown as Sql, ranges);
    });
    if (order) this.cachedOrder = order;
  }

  async claim(reader: string): Promise<HeldRange | null> {
    const [row] = await this.sql<RangeRecord[]>`
      update read_ranges g set state = 'reading', reader = ${reader}, wanted_by = null, position = null, items = 0, touched_at = now()
       where (g.run_id, g.id) = (
         select run_id, id from read_ranges
          where run_id = ${this.runId}
            and ((state = 'open' and (wanted_by is null or wanted_by = ${reader}))
                 or (state in ('open', 'reading') and touched_at < now() - make_interval(secs => ${this.staleMs / 1000})))
          order by wanted_by is not distinct from ${reader} desc, id limit 1
          for update skip locked)
      returning g.*`;
    return row ? held(toRow(row)) : null;
  }

  async progress(id: number, position: number | null, items: number): Promise<Progress> {
    const [row] = await this.sql<
      { bound_from: string | null; bound_to: string | null; wanted_by: string | null; trusted: boolean }[]
    >`
      update read_ranges g set position = coalesce(${position}, g.position), items = ${items}, touched_at = now()
        from read_runs r
       where g.run_id = ${this.runId} and g.id = ${id} and r.run_id = g.run_id
      returning g.bound_from, g.bound_to, g.wanted_by, r.trusted`;
    if (!row) return { bound: { from: null, to: null }, handOver: false };
    this.cachedTrust = this.cachedTrust && row.trusted;
    return { bound: { from: ms(row.bound_from), to: ms(row.bound_to) }, handOver: row.wanted_by !== null };
  }

  async narrow(id: number, bound: DateRange): Promise<void> {
    await this.sql`
      update read_ranges set bound_from = ${bound.from}, bound_to = ${bound.to}
       where run_id = ${this.runId} and id = ${id}`;
  }

  async finish(id: number): Promise<void> {
    await this
      .sql`update read_ranges set state = 'done', touched_at = now() where run_id = ${this.runId} and id = ${id}`;
  }

  async release(id: number): Promise<void> {
    await this.sql`
      update read_ranges set state = 'open', reader = null, wanted_by = null, position = null, items = 0, touched_at = now()
       where run_id = ${this.runId} and id = ${id} and state = 'reading'`;
  }

  async askHandover(reader: string, choose: Parameters<RangeBoard['askHandover']>[1]): Promise<number> {
    return this.sql.begin(async (tx) => {
      await tx`select 1 from read_runs where run_id = ${this.runId} for update`;
      const rows = (
        await tx<RangeRecord[]>`
          select * from read_ranges
           where run_id = ${this.runId} and state = 'reading' and reader <> ${reader} and wanted_by is null`
      ).map(toRow);
      const ids = choose(rows);
      if (ids.length === 0) return 0;
      await tx`
        update read_ranges set wanted_by = ${reader}
         where run_id = ${this.runId} and id in ${tx(ids)} and state = 'reading'`;
      return ids.length;
    }) as Promise<number>;
  }

  async handOver(id: number, resumeAt: { from: number } | { to: number }): Promise<void> {
    await this.sql.begin(async (tx) => {
      const [record] = await tx<RangeRecord[]>`
        select * from read_ranges where run_id = ${this.runId} and id = ${id} for update`;
      if (record?.state !== 'reading') return;
      const { filter, bound } = resumedRange(toRow(record), resumeAt);
      await tx`
        update read_ranges
           set state = 'open', reader = null, position = null, items = 0, touched_at = now(),
               filter_from = ${filter.from}, filter_to = ${filter.to},
               bound_from = ${bound.from}, bound_to = ${bound.to}
         where run_id = ${this.runId} and id = ${id}`;
    });
  }

  async withdraw(reader: string): Promise<void> {
    await this.sql`
      update read_ranges set wanted_by = null
       where run_id = ${this.runId} and wanted_by = ${reader} and state in ('open', 'reading')`;
  }

  async split(choose: Parameters<RangeBoard['split']>[0]): Promise<boolean> {
    return this.sql.begin(async (tx) => {
      await tx`select 1 from read_runs where run_id = ${this.runId} for update`;
      const rows = (
        await tx<RangeRecord[]>`select * from read_ranges where run_id = ${this.runId} and state = 'reading'`
      ).map(toRow);
      const pick = choose(rows);
      if (!pick) return false;
      const victim = rows.find((r) => r.id === pick.id)!;
      const bound = { ...victim.bound, ...boundAfterCut(pick) };
      await tx`
        update read_ranges set bound_from = ${bound.from}, bound_to = ${bound.to}
         where run_id = ${this.runId} and id = ${pick.id}`;
      await this.insertOpen(tx as unknown as Sql, [pick.part]);
      return true;
    }) as Promise<boolean>;
  }

  async readingElsewhere(reader: string): Promise<number> {
    const [row] = await this.sql<{ n: number }[]>`
      select count(*)::int as n from read_ranges
       where run_id = ${this.runId}
         and ((state = 'reading' and reader <> ${reader})
              or (state = 'open' and wanted_by is not null and wanted_by <> ${reader}))`;
    return row?.n ?? 0;
  }

  private async insertOpen(tx: Sql, ranges: readonly DateRange[]): Promise<void> {
    if (ranges.length === 0) return;
    const [{ next }] = (await tx`
      select coalesce(max(id) + 1, 0)::int as next from read_ranges where run_id = ${this.runId}`) as unknown as [
      { next: number },
    ];
    await tx`
      insert into read_ranges ${tx(
        ranges.map((r, i) => ({
          run_id: this.runId,
          id: next + i,
          filter_from: r.from,
          filter_to: r.to,
          bound_from: r.from,
          bound_to: r.to,
          state: 'open',
        })),
      )}`;
  }
}
