import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from './errors.ts';

/** Reading requests and writing JSON answers on node:http. */

/** Largest body accepted: 5,000 sync items with long messages fit well within it. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

export async function readRawBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_BODY_BYTES) throw new ApiError('DEVELOPER_7001', 'request body too large', {}, 413);
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

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

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  if (body === undefined || status === 204) {
    res.statusCode = status;
    res.end();
    return;
  }
  const payload = typeof body === 'string' ? body : JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('content-length', Buffer.byteLength(payload));
  res.end(payload);
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
