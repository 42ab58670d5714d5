import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { DEFAULT_CLIENT, type RunningStub, startStub } from '@ledgersync/stub';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadGrant, TokenCipher } from '../../src/platform/index.ts';
import { startWorkerProcess } from '../integration/worker-process.ts';
import { BIN, runCli } from '../support/cli.ts';
import { useTestDatabase } from '../support/db.ts';
import { useTestRedis } from '../support/redis.ts';
import { stubControl } from '../support/stub-control.ts';

/**
 * README "Running it for a customer", rotating TOKEN_ENCRYPTION_KEY, through the real binary: a
 * grant stored under one key is moved to the next by `status` and by a worker's start, with no
 * renewal, so the old key can go and every command still runs.
 */
const db = useTestDatabase();
const redis = useTestRedis();
const KEY_A = randomBytes(32).toString('base64');
const KEY_B = randomBytes(32).toString('base64');
const KEY_C = randomBytes(32).toString('base64');
let stub: RunningStub;
let control: ReturnType<typeof stubControl>;
let redirectUri: string;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise((r) => server.close(r));
  return port;
}

/** The environment of every process, with its token keys. */
function env(key: string, oldKeys?: string): Record<string, string> {
  return {
    PLATFORM_BASE_URL: stub.apiUrl,
    PLATFORM_CLIENT_ID: DEFAULT_CLIENT.client_id,
    PLATFORM_CLIENT_SECRET: DEFAULT_CLIENT.client_secret,
    PLATFORM_GRANT: 'authorization_code',
    PLATFORM_REDIRECT_URI: redirectUri,
    TOKEN_ENCRYPTION_KEY: key,
    ...(oldKeys ? { TOKEN_ENCRYPTION_OLD_KEYS: oldKeys } : {}),
    DATABASE_URL: inject('databaseUrl'),
    DATABASE_SCHEMA: db.schema,
    REDIS_URL: redis.url,
    QUEUE_PREFIX: redis.prefix,
  };
}

/** `ledgersync connect` under `key`, with the consent approved over HTTP as a browser does. */
async function connectAsBrowser(key: string): Promise<number | null> {
  const child = spawn(process.execPath, [BIN, 'connect', '--timeout', '60'], {
    env: { ...process.env, LOG_LEVEL: 'warn', NODE_ENV: 'test', ...env(key) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      stdout += d;
      const found = /^(https?:\/\/\S+\/oauth\/authorize\?\S+)$/m.exec(stdout);
      if (found) resolve(found[1]!);
    });
    child.on('close', () => reject(new Error(`connect ended before printing the URL: ${stderr}`)));
  });
  const html = await (await fetch(url, { redirect: 'manual' })).text();
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[m[1]!] = m[2]!.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));
  }
  const decision = await fetch(new URL('/oauth/authorize', url), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...fields, decision: 'approve' }).toString(),
  });
  await fetch(decision.headers.get('location')!);
  return new Promise<number | null>((r) => child.on('close', r));
}

/** The stored pair, as ciphertext. */
async function storedPair(): Promise<{ refreshToken: string; accessToken: string }> {
  const grant = await loadGrant(db.sql, DEFAULT_CLIENT.client_id);
  return { refreshToken: grant!.refreshToken, accessToken: grant!.accessToken! };
}

/** Whether `key` alone opens `stored` to the texts `beforeKey` opens `before` to (never printed). */
function sameText(
  stored: { refreshToken: string; accessToken: string },
  key: string,
  before: { refreshToken: string; accessToken: string },
  beforeKey: string,
): boolean {
  const now = TokenCipher.fromConfig(key, undefined);
  const then = TokenCipher.fromConfig(beforeKey, undefined);
  return (
    now.decrypt(stored.refreshToken) === then.decrypt(before.refreshToken) &&
    now.decrypt(stored.accessToken) === then.decrypt(before.accessToken)
  );
}

async function refreshesSoFar(): Promise<number> {
  const grants = await control<{ client_id: string; revoked: boolean; refreshes: number }[]>(
    'GET',
    '/__stub/oauth/grants',
  );
  return grants.filter((g) => g.client_id === DEFAULT_CLIENT.client_id).reduce((n, g) => n + g.refreshes, 0);
}

beforeAll(async () => {
  stub = await startStub({ port: 0 });
  control = stubControl(() => stub.url);
  redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
});

afterAll(async () => {
  await stub?.close();
});

describe('README key rotation through the CLI', () => {
  it('README key rotation: `status` under the new key re-encrypts the stored tokens and says the old key may go; then a command runs with the new key alone', async () => {
    expect(await connectAsBrowser(KEY_A)).toBe(0);
    // The accounting connection `status` reports on, created through the grant under key A.
    const created = await runCli(['connection', 'create', '--provider', 'Key rotation books'], env(KEY_A));
    expect(created.code, created.stderr).toBe(0);
    const underA = await storedPair();
    const refreshes = await refreshesSoFar();

    const status = await runCli(['status'], env(KEY_B, KEY_A));
    expect([0, 3], status.stderr).toContain(status.code);
    expect(status.stdout).toContain(
      'Token encryption: every stored token is under TOKEN_ENCRYPTION_KEY (2 re-encrypted just now); TOKEN_ENCRYPTION_OLD_KEYS may be removed once every process runs with this TOKEN_ENCRYPTION_KEY.',
    );
    const underB = await storedPair();
    expect(underB.refreshToken).not.toBe(underA.refreshToken);
    expect(sameText(underB, KEY_B, underA, KEY_A)).toBe(true);
    // No renewal moved them: the platform was not asked for a new pair.
    expect(await refreshesSoFar()).toBe(refreshes);

    const json = await runCli(['status', '--json'], env(KEY_B, KEY_A));
    expect(JSON.parse(json.stdout).tokenEncryption).toEqual({ reencrypted: 0, needOldKey: 0, oldKeys: true });

    // Step 3: TOKEN_ENCRYPTION_OLD_KEYS removed. Before the re-encryption this exited 78.
    const shown = await runCli(['connection', 'show', '--json'], env(KEY_B));
    expect(shown.stderr).toBe('');
    expect(shown.code).toBe(0);

    for (const out of [status, json, shown].flatMap((r) => [r.stdout, r.stderr])) {
      expect(out).not.toMatch(/svc_business_tok_/);
      for (const key of [KEY_A, KEY_B]) expect(out.includes(key)).toBe(false);
    }
  }, 120_000);

  it('README key rotation: a worker started under the new key re-encrypts the stored tokens at start, without a platform renewal, and logs only the count', async () => {
    const underB = await storedPair();
    const refreshes = await refreshesSoFar();
    const worker = startWorkerProcess(['--no-schedules', '--no-server', '--no-workers'], {
      ...env(KEY_C, KEY_B),
      LOG_LEVEL: 'info',
    });
    try {
      await worker.waitForLine(/ledgersync worker running/);
      const line = worker
        .output()
        .split('\n')
        .find((l) => l.includes('re-encrypted with TOKEN_ENCRYPTION_KEY'));
      expect(line).toBeDefined();
      expect(JSON.parse(line!)).toMatchObject({ reencrypted: 2, needOldKey: 0 });
    } finally {
      expect(await worker.stop()).toBe(0);
    }
    expect(worker.output()).not.toMatch(/svc_business_tok_/);
    for (const key of [KEY_B, KEY_C]) expect(worker.output().includes(key)).toBe(false);
    const underC = await storedPair();
    expect(sameText(underC, KEY_C, underB, KEY_B)).toBe(true);
    expect(await refreshesSoFar()).toBe(refreshes);
    expect((await runCli(['connection', 'show'], env(KEY_C))).code).toBe(0);
  }, 120_000);
});
