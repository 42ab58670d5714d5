import type { IncomingMessage } from 'node:http';
import type { FastifyReply } from 'fastify';
import { ApiError } from './errors.ts';

/** Reading requests (fastify hands over the raw body) and writing JSON answers through fastify. */

/** Largest body accepted (fastify's bodyLimit): 5,000 sync items with long messages fit well within it. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

export type BodyKind = 'json' | 'form' | 'empty';

export interface ParsedBody {
  kind: BodyKind;
  value: unknown;
}

/**
 * JSON unless the request says form-encoded. A body that is not JSON is 400 DEVELOPER_7011
 * (docs/platform.md F2); form bodies are accepted only where a route allows them (POST /token).
 */
export function parseBody(raw: Buffer, contentType: string | undefined, allowForm: boolean): ParsedBody {
  if (raw.length === 0) return { kind: 'empty', value: undefined };
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const text = raw.toString('utf8');
  if (type === 'application/x-www-form-urlencoded') {
    if (!allowForm) throw new ApiError('DEVELOPER_7011', 'request body must be JSON');
    return { kind: 'form', value: Object.fromEntries(new URLSearchParams(text)) };
  }
  try {
    return { kind: 'json', value: JSON.parse(text) };
  } catch {
    throw new ApiError('DEVELOPER_7011', 'request body is not valid JSON');
  }
}

/** First value of each query parameter (the platform reads no repeated parameter). */
export function queryObject(search: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of search) if (!(k in out)) out[k] = v;
  return out;
}

/**
 * A JSON answer, serialised here (JSON.stringify, as the platform's answers) rather than by
 * fastify; nothing once the answer is sent or the socket is gone.
 */
export function sendJson(
  reply: FastifyReply,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (reply.sent) return;
  // A client that is gone hears nothing; fastify is told the answer is dealt with.
  if (reply.raw.destroyed) {
    reply.hijack();
    return;
  }
  reply.code(status).headers(headers);
  if (body === undefined || status === 204) {
    reply.send();
    return;
  }
  reply.type('application/json; charset=utf-8').send(typeof body === 'string' ? body : JSON.stringify(body));
}

/** Source IP of a request, as the platform counts it for its rate limit (F3). */
export function sourceIp(req: IncomingMessage): string {
  const address = req.socket.remoteAddress ?? 'unknown';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    // The listener goes when the timer fires: the stub's one stopping signal outlives every
    // request, and listeners left on it would pile up (one per delayed answer).
    const stop = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    signal?.addEventListener('abort', stop, { once: true });
  });
}
