// A sync worker process for Tryton crash tests: runs the object syncs once against the given
// stub, worker schema, Redis and Tryton database, then exits 0. It prints "erp-writing" when its
// first batch of objects goes to Tryton, so the parent can time a kill from there. With
// PAUSE_AFTER_ERP_WRITE=1 it stops right after the first ERP write that created something,
// before reporting it to the platform, prints "erp-written" and waits there to be killed with
// SIGKILL. TRYTON_TIMEOUT_MS, when set, is the adapter's call timeout (and so how long it lets an
// interrupted call settle).
import type { ErpAdapter, WriteResult } from '../../../src/erp/index.ts';
import { createErp } from '../../../src/erp/index.ts';
import { env, syncObjectsOnce } from '../object-sync-child.ts';

/** Says when objects start going to Tryton and, with `pause`, hangs after a write that created something. */
function watched(erp: ErpAdapter, pause: boolean): ErpAdapter {
  let writing = false;
  const pauseIfWritten = async (results: WriteResult[]) => {
    if (pause && results.some((r) => r.ok && !r.replayed)) {
      process.stdout.write('erp-written\n');
      await new Promise(() => {});
    }
    return results;
  };
  return new Proxy(erp, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      if (property === 'postMany')
        return (items: never[]) => {
          if (!writing && items.length > 0) {
            writing = true;
            process.stdout.write('erp-writing\n');
          }
          return target.postMany(items).then(pauseIfWritten);
        };
      if (/^(post|create)/.test(property)) {
        return (input: never) =>
          (value as (i: never) => Promise<WriteResult>)
            .call(target, input)
            .then(async (r) => (await pauseIfWritten([r]))[0]);
      }
      return value.bind(target);
    },
  });
}

await syncObjectsOnce((_sql, log) => {
  const tryton = createErp(
    {
      kind: 'tryton',
      url: env('TRYTON_URL'),
      database: env('TRYTON_DATABASE'),
      user: env('TRYTON_USER'),
      password: env('TRYTON_PASSWORD'),
      ...(process.env.TRYTON_TIMEOUT_MS ? { timeoutMs: Number(process.env.TRYTON_TIMEOUT_MS) } : {}),
    },
    { log },
  );
  return watched(tryton, process.env.PAUSE_AFTER_ERP_WRITE === '1');
});
