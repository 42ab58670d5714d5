import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ErpAdapter, ErpWrite, WriteResult } from '../../src/erp/index.ts';
import { postOne } from '../../src/erp/index.ts';
import { type ContractFixture, collect } from '../../src/erp/kit/index.ts';

/**
 * Deliberately wrong ERP adapters, each a small decorator over a right one, for proving the
 * conformance kit (src/erp/kit) catches the fault. Each keeps every other behaviour of `base`.
 * One wrong service too, over HTTP: a proxy in front of a right one (startCursorIgnoringProxy).
 */

/** `base` with its writes replaced; createVendor goes through the replaced postMany. */
function withPostMany(
  base: ErpAdapter,
  postMany: (items: readonly ErpWrite[]) => Promise<WriteResult[]>,
): ErpAdapter {
  const wrong: ErpAdapter = {
    name: `wrong ${base.name}`,
    glAccounts: () => base.glAccounts(),
    customFields: () => base.customFields(),
    fieldOptions: (fieldId) => base.fieldOptions(fieldId),
    vendors: () => base.vendors(),
    taxRates: () => base.taxRates(),
    taxCodes: () => base.taxCodes(),
    createVendor: (input) => postOne(wrong, input),
    postMany,
    close: () => base.close(),
  };
  return wrong;
}

/**
 * Drops idempotency: every call writes its objects under fresh ids underneath (a bill and its
 * payment in one call stay linked), and answers under the ids it was given. A retried batch is
 * written a second time.
 */
export function postsTwiceOnRetry(base: ErpAdapter): ErpAdapter {
  let call = 0;
  return withPostMany(base, async (items) => {
    call += 1;
    const fresh = (id: string) => `${id}~${call}`;
    const results = await base.postMany(
      items.map((item) => ({
        ...item,
        objectId: fresh(item.objectId),
        ...(item.kind === 'bill_payment' ? { billObjectId: fresh(item.billObjectId) } : {}),
      })),
    );
    return results.map((result, i) => ({ ...result, objectId: items[i]!.objectId }));
  });
}

/** Acknowledges every bill with a reference and a deep link, and writes none of them. */
export function losesBills(base: ErpAdapter): ErpAdapter {
  let n = 0;
  return withPostMany(base, async (items) => {
    const kept = items.filter((item) => item.kind !== 'bill');
    const written = await base.postMany(kept);
    return items.map((item): WriteResult => {
      if (item.kind !== 'bill') return written.shift()!;
      n += 1;
      const referenceId = `BILL-LOST-${n}`;
      return {
        ok: true,
        kind: 'bill',
        objectId: item.objectId,
        referenceId,
        // No deep link: the books it wraps have no public base URL (docs/platform.md F42).
        replayed: false,
      };
    });
  });
}

/** Codes a line on the fixture's inactive account to an active one instead of refusing it. */
export function acceptsInactiveAccount(base: ErpAdapter, fixture: ContractFixture): ErpAdapter {
  const recode = (item: ErpWrite): ErpWrite =>
    'lines' in item
      ? {
          ...item,
          lines: item.lines.map((line) =>
            line.glAccountId === fixture.inactiveAccount.id
              ? { ...line, glAccountId: fixture.expenseAccountId }
              : line,
          ),
        }
      : item;
  return withPostMany(base, (items) => base.postMany(items.map(recode)));
}

/** Answers a batch's results rotated by one place, each still naming its own object. */
export function rotatesResults(base: ErpAdapter): ErpAdapter {
  return withPostMany(base, async (items) => {
    const results = await base.postMany(items);
    return results.length > 1 ? [...results.slice(1), results[0]!] : results;
  });
}

/** Rotates results like rotatesResults, and relabels each with the object at its position. */
export function rotatesAndRelabelsResults(base: ErpAdapter): ErpAdapter {
  const rotating = rotatesResults(base);
  return withPostMany(base, async (items) => {
    const results = await rotating.postMany(items);
    return results.map(
      (result, i): WriteResult =>
        ({ ...result, kind: items[i]!.kind, objectId: items[i]!.objectId }) as WriteResult,
    );
  });
}

/** Streams its GL accounts again and again, without end (no cursors: an in-process adapter). */
export function streamsAccountsForever(base: ErpAdapter): ErpAdapter {
  return {
    ...withPostMany(base, (items) => base.postMany(items)),
    glAccounts: async function* () {
      const accounts = await collect(base.glAccounts());
      for (;;) yield* accounts;
    },
  };
}

/**
 * A wrong HTTP ERP service: `target` (a service of docs/erp-http.md, bearer token only) behind a
 * proxy that ignores the chart cursor. Every `GET /chart/...` is answered with the stream's first
 * page and a fresh `nextCursor`, so a client that follows the cursor reads page 1 for ever; every
 * other call passes through. The chart calls are counted: tests bound a read by them.
 */
export async function startCursorIgnoringProxy(
  target: string,
): Promise<{ url: string; chartCalls: () => number; close: () => Promise<void> }> {
  let chartCalls = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', target);
      const chart = req.method === 'GET' && url.pathname.startsWith('/chart/');
      if (chart) {
        chartCalls++;
        url.searchParams.delete('cursor');
      }
      const answer = await fetch(url, {
        method: req.method,
        headers: {
          authorization: req.headers.authorization ?? '',
          'content-type': 'application/json',
        },
        ...(req.method === 'POST' ? { body: Buffer.concat(chunks).toString('utf8') } : {}),
      });
      let text = await answer.text();
      if (chart && answer.ok) {
        const page = JSON.parse(text) as { items: unknown[]; nextCursor: string | null };
        text = JSON.stringify({ ...page, nextCursor: `ignored-${chartCalls}` });
      }
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    chartCalls: () => chartCalls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
