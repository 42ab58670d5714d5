import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A JSON-RPC relay in front of trytond that holds back the first call of one method: the call
 * reaches Tryton only when the test releases it, or right after Tryton answered a later call of
 * `releaseAfter`, whether or not its caller is still there. That is what a Tryton server busy
 * with a large call does when the process that made it is killed: it carries the call out and
 * commits it, later than the caller's death, and perhaps after another process looked.
 */

export interface HoldingOptions {
  hold: string;
  releaseAfter?: string;
}

export interface HoldingProxy {
  url: string;
  /** Resolves when the held call arrived (its caller now waits for an answer). */
  held: Promise<void>;
  /** Sends the held call on to Tryton; resolves with Tryton's answer to it. */
  release(): Promise<unknown>;
  /** How many calls of each method went through, the held one included once released. */
  calls: Map<string, number>;
  close(): Promise<void>;
}

function bodyOf(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

export async function startHoldingProxy(target: string, options: HoldingOptions): Promise<HoldingProxy> {
  const root = target.replace(/\/+$/, '');
  const calls = new Map<string, number>();
  let onHeld: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    onHeld = resolve;
  });
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let holding = false;
  let answerToHeld: Promise<unknown> | undefined;

  const forward = async (request: IncomingMessage, body: Buffer) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (request.headers.authorization) headers.authorization = request.headers.authorization;
    return fetch(`${root}${request.url ?? '/'}`, { method: 'POST', headers, body });
  };

  const server = createServer((request, response) => {
    void (async () => {
      const body = await bodyOf(request);
      const method = (JSON.parse(body.toString() || '{}') as { method?: string }).method ?? '';
      if (method === options.hold && !holding) {
        holding = true;
        onHeld();
        await released;
        // The caller is gone by now: Tryton carries the call out all the same.
        answerToHeld = forward(request, body).then((r) => r.json());
        calls.set(method, (calls.get(method) ?? 0) + 1);
        await answerToHeld.catch(() => {});
        response.destroy();
        return;
      }
      calls.set(method, (calls.get(method) ?? 0) + 1);
      const answer = await forward(request, body);
      const answered = Buffer.from(await answer.arrayBuffer());
      if (holding && method === options.releaseAfter) {
        release();
        while (!answerToHeld) await new Promise((r) => setTimeout(r, 10));
        await answerToHeld.catch(() => {});
      }
      response.writeHead(answer.status, { 'content-type': 'application/json' });
      response.end(answered);
    })().catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    held,
    async release() {
      release();
      while (!answerToHeld) await new Promise((r) => setTimeout(r, 10));
      return answerToHeld;
    },
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
