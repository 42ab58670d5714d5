import type { Sql } from 'postgres';
import type { ErpAdapter } from '../../src/erp/index.ts';
import type { SyncPlatform } from '../../src/sync/objects/index.ts';
import type { Meter } from './meter.ts';

/** The ERP with its write calls timed under "erp.<method>". */
export function timedErp(erp: ErpAdapter, meter: Meter): ErpAdapter {
  const timed = new Set(['postMany', 'createVendor']);
  return new Proxy(erp, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof prop !== 'string' || !timed.has(prop) || typeof value !== 'function') return value;
      return (...args: unknown[]) =>
        meter.time(`erp.${prop}`, () => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
    },
  });
}

/**
 * The platform port with its calls timed: "platform.page" is one page read as the reader saw it
 * (rate-limiter wait + HTTP + parse), "platform.postSyncs" one result post.
 */
export function timedPlatform(platform: SyncPlatform, meter: Meter): SyncPlatform {
  const prepare = platform.prepare?.bind(platform);
  return {
    ...(prepare ? { prepare } : {}),
    readyPages(kind, options) {
      const source = platform.readyPages(kind, options);
      return {
        [Symbol.asyncIterator]() {
          const iterator = source[Symbol.asyncIterator]();
          return {
            next: () => meter.time('platform.page', () => iterator.next()),
            return: (value?: unknown) =>
              iterator.return ? iterator.return(value) : Promise.resolve({ done: true, value: undefined }),
          };
        },
      } as ReturnType<SyncPlatform['readyPages']>;
    },
    postSyncs: (body) => meter.time('platform.postSyncs', () => platform.postSyncs(body)),
    uploadVendors: (vendors) => meter.time('platform.uploadVendors', () => platform.uploadVendors(vendors)),
    codeTransactionVendor: (id, vendor) =>
      meter.time('platform.codeTransactionVendor', () => platform.codeTransactionVendor(id, vendor)),
  };
}

function isTemplate(value: unknown): value is TemplateStringsArray {
  return Array.isArray(value) && 'raw' in value;
}

/** A statement's first words, parameters as "?": "insert into sync_ledger (connection_id, ...". */
export function statementLabel(strings: readonly string[], width = 56): string {
  const text = strings.join('?').replace(/\s+/g, ' ').trim().toLowerCase();
  return text.length > width ? `${text.slice(0, width)}…` : text;
}

/**
 * The pool with every awaited tagged-template statement timed as "<prefix> <first words>", and
 * every transaction (sql.begin) as "<prefix> begin <calling function>". Statements inside a
 * transaction are part of the transaction's time. Fragments (never awaited) are not timed.
 */
export function timedSql(sql: Sql, meter: Meter, prefix = 'sql'): Sql {
  return new Proxy(sql, {
    apply(target, thisArg, args: unknown[]) {
      const query = Reflect.apply(target as never, thisArg, args) as unknown;
      if (!isTemplate(args[0]) || !query || typeof (query as PromiseLike<unknown>).then !== 'function')
        return query;
      const label = `${prefix} ${statementLabel(args[0])}`;
      const then = (query as PromiseLike<unknown>).then;
      Object.defineProperty(query, 'then', {
        configurable: true,
        value(resolve?: (v: unknown) => unknown, reject?: (e: unknown) => unknown) {
          const started = performance.now();
          const done = () => meter.add(label, performance.now() - started);
          return then.call(
            query,
            (v: unknown) => {
              done();
              return resolve ? resolve(v) : v;
            },
            (e: unknown) => {
              done();
              if (reject) return reject(e);
              throw e;
            },
          );
        },
      });
      return query;
    },
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (prop !== 'begin' || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const caller = /at (?:async )?([\w.]+)/.exec(new Error().stack?.split('\n')[2] ?? '')?.[1] ?? '?';
        return meter.time(`${prefix} begin ${caller}`, () =>
          (value as (...a: unknown[]) => Promise<unknown>).apply(target, args),
        );
      };
    },
  });
}
