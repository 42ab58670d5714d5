import { DEFAULT_CLIENT } from '../../src/auth.ts';
import { type RunningStub, type StubOptions, startStub } from '../../src/index.ts';

/** Real-HTTP helpers for the stub's integration tests: tokens, platform calls, control calls. */

/** A JSON object as tests read it, field by field. */
// biome-ignore lint/suspicious/noExplicitAny: JSON read field by field in tests
export type Json = Record<string, any>;

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are read field by field in tests
export interface Answer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

const ALL_SCOPES = [
  'accounting:read',
  'accounting:write',
  'bills:read',
  'cashbacks:read',
  'entities:read',
  'reimbursements:read',
  'transactions:read',
  'transfers:read',
  'vendors:read',
  'vendors:write',
].join(' ');

async function answer(res: Response): Promise<Answer> {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body, headers: res.headers };
}

export function basicAuth(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
}

/** The form-encoded, Basic-auth token call integrators write (F1). */
export async function tokenFor(
  stub: RunningStub,
  scope = ALL_SCOPES,
  client = DEFAULT_CLIENT,
): Promise<string> {
  const res = await fetch(`${stub.apiUrl}/token`, {
    method: 'POST',
    headers: {
      authorization: basicAuth(client.client_id, client.client_secret),
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope }).toString(),
  });
  if (res.status !== 200) throw new Error(`token call failed: ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

export class Api {
  constructor(
    readonly stub: RunningStub,
    private token: string | null,
  ) {}

  setToken(token: string | null): void {
    this.token = token;
  }

  async call(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer> {
    const url = path.startsWith('http') ? path : `${this.stub.apiUrl}${path}`;
    const h: Record<string, string> = { ...headers };
    if (this.token) h.authorization = `Bearer ${this.token}`;
    if (body !== undefined && !h['content-type']) h['content-type'] = 'application/json';
    const init: RequestInit = { method, headers: h };
    if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
    return answer(await fetch(url, init));
  }

  get = (path: string) => this.call('GET', path);
  post = (path: string, body?: unknown) => this.call('POST', path, body ?? {});
  patch = (path: string, body: unknown) => this.call('PATCH', path, body);
  put = (path: string, body: unknown) => this.call('PUT', path, body);
  /** docs/platform.md F29: DELETE carries a JSON body, `{}` at least. */
  del = (path: string, body: unknown = {}) => this.call('DELETE', path, body);
}

/** Control routes (/__stub/*): no token, no rate limit. */
export class Control {
  constructor(readonly stub: RunningStub) {}

  async call(method: string, path: string, body?: unknown): Promise<Answer> {
    const init: RequestInit = { method, headers: { 'content-type': 'application/json' } };
    if (body !== undefined) init.body = JSON.stringify(body);
    return answer(await fetch(`${this.stub.url}/__stub${path}`, init));
  }

  get = (path: string) => this.call('GET', path);
  post = (path: string, body?: unknown) => this.call('POST', path, body ?? {});
  put = (path: string, body: unknown) => this.call('PUT', path, body);
  patch = (path: string, body: unknown) => this.call('PATCH', path, body);
}

export interface Harness {
  stub: RunningStub;
  api: Api;
  control: Control;
}

/** Starts a stub on a free port with a token holding every accounting-sync scope. */
export async function harness(options: StubOptions = {}): Promise<Harness> {
  const stub = await startStub({ rateLimit: false, ...options });
  const api = new Api(stub, await tokenFor(stub));
  return { stub, api, control: new Control(stub) };
}

/** Follows page.next from a first URL; returns every item (F4). */
// biome-ignore lint/suspicious/noExplicitAny: JSON items
export async function allPages<T = any>(api: Api, first: string, maxPages = 1000): Promise<T[]> {
  const out: T[] = [];
  let next: string | null = first;
  for (let n = 0; next && n < maxPages; n++) {
    const page: Answer = await api.get(next);
    if (page.status !== 200) throw new Error(`page failed: ${page.status} ${JSON.stringify(page.body)}`);
    out.push(...page.body.data);
    next = page.body.page.next;
  }
  return out;
}

export async function waitFor<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 3000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error('waitFor timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}
