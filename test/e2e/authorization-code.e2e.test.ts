import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { DEFAULT_CLIENT, type RunningStub, startStub } from '@ledgersync/stub';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadGrant } from '../../src/platform/index.ts';
import { BIN, runCli } from '../support/cli.ts';
import { useTestDatabase } from '../support/db.ts';
import { useTestRedis } from '../support/redis.ts';
import { stubControl } from '../support/stub-control.ts';

/**
 * The Authorization Code grant through real processes against the stub (docs/platform.md F44
 * consent, F45 code and refresh grants, F46 rotation with reuse detection): `connect` driven as a
 * browser would, then 4 processes renewing 1-second tokens under strict rotation while children
 * are killed and refresh answers dropped, then a revocation shown by `status` and cured by
 * connecting again.
 */
const db = useTestDatabase();
const redis = useTestRedis();
const CHILD = fileURLToPath(new URL('../support/grant-call-child.ts', import.meta.url));
const KEY = randomBytes(32).toString('base64');
let stub: RunningStub;
let control: ReturnType<typeof stubControl>;
let redirectUri: string;

interface GrantView {
  client_id: string;
  revoked: boolean;
  reason: string | null;
  refreshes: number;
  reuse_detected: boolean;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise((r) => server.close(r));
  return port;
}

function env(): Record<string, string> {
  return {
    PLATFORM_BASE_URL: stub.apiUrl,
    PLATFORM_CLIENT_ID: DEFAULT_CLIENT.client_id,
    PLATFORM_CLIENT_SECRET: DEFAULT_CLIENT.client_secret,
    PLATFORM_GRANT: 'authorization_code',
    PLATFORM_REDIRECT_URI: redirectUri,
    PLATFORM_CONNECTION_ID: 'conn_grant_test',
    TOKEN_ENCRYPTION_KEY: KEY,
    DATABASE_URL: inject('databaseUrl'),
    DATABASE_SCHEMA: db.schema,
    REDIS_URL: redis.url,
    QUEUE_PREFIX: redis.prefix,
  };
}

interface ConnectRun {
  child: ChildProcess;
  /** The consent page `connect` printed. */
  url: string;
  output: () => { stdout: string; stderr: string };
  exit: Promise<number | null>;
}

/** `ledgersync connect`, up to the consent page it prints. */
async function startConnect(): Promise<ConnectRun> {
  const child = spawn(process.execPath, [BIN, 'connect', '--timeout', '60'], {
    env: { ...process.env, LOG_LEVEL: 'warn', NODE_ENV: 'test', ...env() },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (d) => {
    stderr += d;
  });
  const exit = new Promise<number | null>((r) => child.on('close', r));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      stdout += d;
      const found = /^(https?:\/\/\S+\/oauth\/authorize\?\S+)$/m.exec(stdout);
      if (found) resolve(found[1]!);
    });
    child.on('close', () => reject(new Error(`connect ended before printing the URL: ${stderr}`)));
  });
  return { child, url, output: () => ({ stdout, stderr }), exit };
}

/** The business approves the consent page: the address the platform sends its browser back to. */
async function approve(url: string): Promise<string> {
  const page = await fetch(url, { redirect: 'manual' });
  expect(page.status).toBe(200);
  const html = await page.text();
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[m[1]!] = m[2]!.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));
  }
  expect(fields.code_challenge_method).toBe('S256');
  expect(fields.scope).toContain('offline_access');
  const decision = await fetch(new URL('/oauth/authorize', url), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...fields, decision: 'approve' }).toString(),
  });
  expect(decision.status).toBe(302);
  return decision.headers.get('location')!;
}

/** `ledgersync connect`, with the consent given over HTTP as a browser gives it. */
async function connectAsBrowser(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = await startConnect();
  const back = await fetch(await approve(run.url));
  expect(back.status).toBe(200);
  const code = await run.exit;
  return { code, ...run.output() };
}

/** One line on stderr, no stack (README "Exit codes"). */
function expectOneLine(stderr: string): void {
  expect(stderr.trim().split('\n')).toHaveLength(1);
  expect(stderr).not.toMatch(/\n\s+at |"stack"/);
}

beforeAll(async () => {
  stub = await startStub({ port: 0 });
  control = stubControl(() => stub.url);
  redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
  // 1-second access tokens under strict rotation from the first consent on (the fault test renews them).
  await control('PUT', '/__stub/config', { oauth: { access_ttl_s: 1, reuse_grace_s: 0 } });
});

afterAll(async () => {
  await stub?.close();
});

describe('Authorization Code grant end to end (docs/platform.md F44-F46)', () => {
  it('F44: connect prints the consent page; approving it stores the grant, encrypted', async () => {
    const result = await connectAsBrowser();
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const grant = await loadGrant(db.sql, DEFAULT_CLIENT.client_id);
    expect(grant?.revokedAt).toBeNull();
    expect(grant!.refreshToken).not.toContain('svc_');
    const grants = await control<GrantView[]>('GET', '/__stub/oauth/grants');
    expect(grants.filter((g) => !g.revoked)).toHaveLength(1);
  }, 60_000);

  it('F46: a revocation met before any command recorded a connection: status is PROBLEM, exit 3, naming connect', async () => {
    expect(await db.sql`select id from connections`).toHaveLength(0);
    await control('POST', '/__stub/oauth/revoke', { client_id: DEFAULT_CLIENT.client_id });
    // No PLATFORM_CONNECTION_ID either: nothing names a connection.
    const status = await runCli(['status'], { ...env(), PLATFORM_CONNECTION_ID: undefined });
    expect(status.stderr).not.toMatch(/\n\s+at |"stack"/);
    expect(status.code).toBe(3);
    expect(status.stdout).toContain('PROBLEM');
    expect(status.stdout).toContain('the business must reconnect');
    expect(status.stdout).toContain('ledgersync connect');
    const json = await runCli(['status', '--json'], { ...env(), PLATFORM_CONNECTION_ID: undefined });
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout).health.state).toBe('problem');
    const again = await connectAsBrowser();
    expect(again.code).toBe(0);
  }, 120_000);

  it('F46: 4 processes renewing 1-second tokens, with kills and dropped refresh answers: no reuse, no lock-out', async () => {
    await control('PUT', '/__stub/faults', {
      seed: 7,
      routes: { 'POST /token': { drop_after_commit_rate: 0.2 } },
    });
    const runForMs = 60_000;
    const ends = Date.now() + runForMs;
    const lines: string[] = [];
    const spawnChild = (): ChildProcess => {
      const child = spawn(process.execPath, ['--import', 'tsx/esm', CHILD], {
        env: { ...process.env, ...env(), CALL_FOR_MS: String(Math.max(1_000, ends - Date.now())) },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let rest = '';
      child.stdout!.on('data', (d) => {
        const text = rest + String(d);
        const parts = text.split('\n');
        rest = parts.pop() ?? '';
        lines.push(...parts);
      });
      return child;
    };
    const children = [spawnChild(), spawnChild(), spawnChild(), spawnChild()];
    let kills = 0;
    while (Date.now() < ends - 3_000) {
      await new Promise((r) => setTimeout(r, 1_500 + Math.random() * 1_500));
      const i = Math.floor(Math.random() * children.length);
      children[i]!.kill('SIGKILL');
      kills++;
      children[i] = spawnChild();
    }
    await Promise.all(
      children.map((c) => (c.exitCode !== null ? undefined : new Promise((r) => c.on('close', r)))),
    );
    await control('PUT', '/__stub/faults', {});
    const grants = await control<GrantView[]>('GET', '/__stub/oauth/grants');
    const live = grants.filter((g) => g.client_id === DEFAULT_CLIENT.client_id && !g.revoked);
    expect(grants.filter((g) => g.reuse_detected)).toEqual([]);
    expect(live).toHaveLength(1);
    // 1-second tokens over a minute: the grant was renewed many times.
    expect(live[0]!.refreshes).toBeGreaterThan(20);
    expect(kills).toBeGreaterThan(5);
    const errors = lines.filter((l) => l.startsWith('err'));
    expect(errors).toEqual([]);
    expect(lines.filter((l) => l === 'ok').length).toBeGreaterThan(100);
    expect((await loadGrant(db.sql, DEFAULT_CLIENT.client_id))!.revokedAt).toBeNull();
  }, 120_000);

  it('F46: a grant the business revoked turns status to PROBLEM with the connect command; connecting again cures it', async () => {
    await control('PUT', '/__stub/config', { oauth: { access_ttl_s: 3600 } });
    await control('POST', '/__stub/oauth/revoke', { client_id: DEFAULT_CLIENT.client_id });
    // The next platform call meets the revocation (401, then invalid_grant at renewal).
    const call = await runCli(['connection', 'show'], env());
    expect(call.code).toBe(78);
    expect(call.stderr).toContain('ledgersync connect');
    const status = await runCli(['status'], env());
    expect(status.code).toBe(3);
    expect(status.stdout).toContain('PROBLEM');
    expect(status.stdout).toContain('the business must reconnect');
    expect(status.stdout).toContain('ledgersync connect');
    expect(status.stdout + status.stderr).not.toMatch(/svc_business_tok_/);

    const again = await connectAsBrowser();
    expect(again.code).toBe(0);
    const after = await runCli(['status'], env());
    expect(after.stdout).not.toContain('must reconnect');
    const shown = await runCli(['connection', 'show', '--json'], env());
    expect(shown.code).toBe(0);
  }, 120_000);
  it('F44: a stray or forged callback gets 400 and connect keeps waiting; only its own state ends it', async () => {
    const run = await startConnect();
    const callback = new URL(redirectUri);
    const forged = await fetch(`${callback}?state=forged&code=abc`);
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain('not the consent');
    expect((await fetch(`${callback}?error=access_denied`)).status).toBe(400);
    expect((await fetch(callback)).status).toBe(400);
    // Still listening: the business's real approval is taken.
    expect(run.child.exitCode).toBeNull();
    const back = await fetch(await approve(run.url));
    expect(back.status).toBe(200);
    expect(await run.exit).toBe(0);
    expect(run.output().stdout).toContain('Connected');
    // F47: the grant this consent replaced was live, and is revoked; only the new one lives.
    const mine = (await control<GrantView[]>('GET', '/__stub/oauth/grants')).filter(
      (g) => g.client_id === DEFAULT_CLIENT.client_id,
    );
    expect(mine.filter((g) => !g.revoked)).toHaveLength(1);
    expect(mine.at(-1)!.revoked).toBe(false);
    expect(mine.at(-2)!.reason).toBe('revoked_by_client');
  }, 60_000);

  it('F44: a code the platform refuses (past its 60 s) is one line, exit 1, with the next step; nothing stored', async () => {
    const before = (await loadGrant(db.sql, DEFAULT_CLIENT.client_id))!.refreshToken;
    const run = await startConnect();
    const back = await approve(run.url);
    await control('POST', '/__stub/clock', { advance_ms: 61_000 });
    const page = await fetch(back);
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('Not connected');
    expect(await run.exit).toBe(1);
    const { stderr } = run.output();
    expectOneLine(stderr);
    expect(stderr).toMatch(
      /^ledgersync: the platform refused the consent's code \(.*expired.*\): nothing was stored/,
    );
    expect(stderr).toContain('ledgersync connect');
    expect(stderr).not.toMatch(/svc_business_tok_/);
    expect((await loadGrant(db.sql, DEFAULT_CLIENT.client_id))!.refreshToken).toBe(before);
  }, 60_000);

  it("F44: the redirect URI's port in use is one line naming PLATFORM_REDIRECT_URI, exit 78, and no consent page", async () => {
    const port = Number(new URL(redirectUri).port);
    const squatter = createServer();
    await new Promise<void>((r) => squatter.listen(port, '127.0.0.1', r));
    try {
      const result = await runCli(['connect', '--timeout', '5'], env());
      expect(result.code).toBe(78);
      expectOneLine(result.stderr);
      expect(result.stderr).toContain('PLATFORM_REDIRECT_URI');
      expect(result.stderr).toContain(`127.0.0.1:${port}`);
      expect(result.stdout).not.toContain('/oauth/authorize');
    } finally {
      await new Promise((r) => squatter.close(r));
    }
  }, 60_000);
});
