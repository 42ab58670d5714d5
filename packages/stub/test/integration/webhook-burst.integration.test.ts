import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness, waitFor } from './helpers.ts';

/**
 * A burst the control routes accept, with a webhook subscription (docs/platform.md F21): the
 * deliveries go out as a bounded stream, never all at once. Sending 20,000 at once used to open
 * 20,000 sockets and take the stub down (`ledgersync try` died of 6,000, out of heap).
 */

const MAX_IN_FLIGHT = 4;
const BURST = 20_000;

/** A receiver that counts the deliveries open at once; it answers each after a short wait. */
async function countingReceiver() {
  const seen = {
    deliveries: [] as { type: string; challenge?: string; object?: { id: string }; path: string }[],
    open: 0,
    maxOpen: 0,
  };
  const server: Server = createServer((req, res) => {
    seen.open++;
    seen.maxOpen = Math.max(seen.maxOpen, seen.open);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        type: string;
        challenge?: string;
        object?: { id: string };
      };
      seen.deliveries.push({ ...json, path: req.url ?? '' });
      setTimeout(() => {
        seen.open--;
        res.end();
      }, 5);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { seen, url, close };
}

describe('a burst of objects with a webhook subscription (docs/platform.md F21)', () => {
  let h: Harness;
  let receiver: Awaited<ReturnType<typeof countingReceiver>>;
  beforeAll(async () => {
    h = await harness({ config: { webhookRetryBaseMs: 5, webhookMaxInFlight: MAX_IN_FLIGHT } });
    receiver = await countingReceiver();
  });
  afterAll(async () => {
    await h.stub.close();
    await receiver.close();
  });

  const subscribe = async (path: string) => {
    const created = await h.api.post('/webhooks', {
      endpoint_url: `${receiver.url}${path}`,
      event_types: ['transactions.ready_to_sync'],
    });
    expect(created.status).toBe(201);
    const challenge = await waitFor(() =>
      receiver.seen.deliveries.find((d) => d.path === path && d.challenge !== undefined),
    );
    return { id: created.body.id as string, challenge: challenge.challenge! };
  };

  it(`F21: ${BURST} objects added in one call are accepted, delivered at most ${MAX_IN_FLIGHT} at a time, and the stub keeps answering`, async () => {
    await h.api.post('/accounting/connection', { remote_provider_name: 'Tryton' });
    await h.control.post('/seed', { seed: 5, transactions: 30 });
    const first = await subscribe('/first');
    await h.api.post(`/webhooks/${first.id}/verify`, { challenge: first.challenge });

    const added = await h.control.post('/objects/transactions', { count: BURST });
    expect(added.status).toBe(201);
    expect(added.body.ids).toHaveLength(BURST);
    const hub = h.stub.state.webhooks;
    expect(hub.pending).toBeGreaterThan(BURST / 2);

    // The stub answers its platform and control routes while the burst is being delivered.
    const page = await h.api.get('/transactions?sync_status=SYNC_READY&page_size=100');
    expect(page.status).toBe(200);
    expect(page.body.data).toHaveLength(100);
    expect((await h.control.get('/health')).status).toBe(200);
    expect(hub.pending).toBeGreaterThan(0);

    // A new subscription's challenge is not queued behind the burst (a registration waits for it).
    const second = await subscribe('/second');
    expect(second.challenge).toEqual(expect.any(String));
    expect(hub.pending).toBeGreaterThan(BURST / 4);

    await waitFor(() =>
      receiver.seen.deliveries.filter((d) => d.type === 'transactions.ready_to_sync').length >= 300
        ? true
        : undefined,
    );
    expect(hub.sending).toBeLessThanOrEqual(MAX_IN_FLIGHT);
    expect(receiver.seen.maxOpen).toBeGreaterThan(0);
    expect(receiver.seen.maxOpen).toBeLessThanOrEqual(MAX_IN_FLIGHT);
    // Every delivery so far is one of the burst's objects, each once.
    const burst = new Set(added.body.ids as string[]);
    const delivered = receiver.seen.deliveries
      .filter((d) => d.type === 'transactions.ready_to_sync')
      .map((d) => d.object!.id);
    expect(delivered.every((id) => burst.has(id))).toBe(true);
    expect(new Set(delivered).size).toBe(delivered.length);

    // A reset ends the stream at once: nothing is left pending.
    await h.control.post('/reset');
    expect(hub.pending).toBe(0);
  });
});
