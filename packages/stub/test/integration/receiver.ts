import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A webhook endpoint for tests: records each delivery; answers with the statuses it is told to. */
interface Delivery {
  body: string;
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies are read field by field
  json: Record<string, any>;
  signature: string | undefined;
}

export interface Receiver {
  url: string;
  deliveries: Delivery[];
  /** Statuses to answer with, in order; 200 once used up. */
  script: number[];
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const deliveries: Delivery[] = [];
  const receiver = { deliveries, script: [] as number[] } as unknown as Receiver;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      deliveries.push({
        body,
        json: JSON.parse(body),
        signature: req.headers['x-svc-webhook-signature'] as string,
      });
      res.statusCode = receiver.script.shift() ?? 200;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
