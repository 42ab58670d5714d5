import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isValidWebhookSignature, SIGNATURE_HEADER } from '../../src/platform/index.ts';
import { syncObjects } from '../../src/sync/objects/index.ts';
import { emit, type WorkerConfig } from './worker-config.ts';
import type { WorkerDeps } from './worker-deps.ts';

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/**
 * A sync-button responder for the benchmark: a webhook receiver subscribed to
 * `<kind>.sync_requested`; each event starts an object sync of the requested rows with its
 * sync_request_id (docs/platform.md G28), and a line reports when the event arrived and when the run
 * finished. Runs until `stop` resolves; returns how many runs failed.
 */
export async function runButtonTask(
  config: WorkerConfig,
  deps: WorkerDeps,
  connectionId: string,
  stop: Promise<void>,
): Promise<{ runs: number; failures: string[] }> {
  const sync = config.sync;
  if (!sync) throw new Error('task button needs BENCH_WORKER.sync');
  const eventType = `${sync.kind}.sync_requested`;
  let secret = '';
  let challenged: (challenge: string) => void = () => {};
  const challenge = new Promise<string>((resolve) => {
    challenged = resolve;
  });
  const running = new Set<Promise<void>>();
  const failures: string[] = [];
  let runs = 0;

  const startRun = (syncRequestId: string, arrivedAt: number) => {
    runs++;
    const run = syncObjects(
      { sql: deps.sql, erp: deps.erp, platform: deps.syncPlatform, connectionId, log: deps.log },
      sync.kind,
      { syncRequestId, slices: sync.slices, readAhead: sync.readAhead },
    )
      .then((summary) =>
        emit({
          bench: 'event',
          syncRequestId,
          arrivedAt,
          finishedAt: Date.now(),
          read: summary.read,
          reported: summary.reported.items,
        }),
      )
      .catch((error: unknown) => {
        failures.push(`${syncRequestId}: ${error instanceof Error ? error.message : String(error)}`);
      })
      .finally(() => running.delete(run));
    running.add(run);
  };

  const server: Server = createServer((request, response) => {
    const arrivedAt = Date.now();
    void readBody(request).then((raw) => {
      const body = JSON.parse(raw.toString('utf8') || '{}') as {
        challenge?: string;
        type?: string;
        object?: { sync_request_id?: string };
      };
      if (body.challenge) {
        challenged(body.challenge);
        response.writeHead(200).end();
        return;
      }
      const header = request.headers[SIGNATURE_HEADER.toLowerCase()];
      if (!isValidWebhookSignature(secret, raw, typeof header === 'string' ? header : undefined)) {
        response.writeHead(401).end();
        return;
      }
      response.writeHead(200).end();
      const id = body.object?.sync_request_id;
      if (body.type === eventType && id) startRun(id, arrivedAt);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const subscription = await deps.client.webhooks.subscribe({
    endpoint_url: `http://127.0.0.1:${port}/webhooks`,
    event_types: [eventType as never],
  });
  secret = subscription.secret ?? '';
  await deps.client.webhooks.verify(subscription.id, await challenge);
  emit({ bench: 'ready', t: Date.now() });

  await stop;
  await Promise.allSettled([...running]);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return { runs, failures };
}
