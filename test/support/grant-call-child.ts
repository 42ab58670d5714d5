// A process of the Authorization Code grant fault test: a loop of authenticated platform calls
// through the product's client (its grant renewal in PostgreSQL, docs/platform.md F46), until
// CALL_FOR_MS has passed. One line per call on stdout: `ok`, or `err <message>`. Killed with
// SIGKILL at random moments by the test.
import postgres from 'postgres';
import { createPlatformClient, TokenCipher } from '../../src/platform/index.ts';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

const sql = postgres(env('DATABASE_URL'), {
  max: 3,
  onnotice: () => {},
  connection: { search_path: env('DATABASE_SCHEMA') },
});
const client = createPlatformClient({
  baseUrl: env('PLATFORM_BASE_URL'),
  clientId: env('PLATFORM_CLIENT_ID'),
  clientSecret: env('PLATFORM_CLIENT_SECRET'),
  scopes: 'accounting:read',
  redis: env('REDIS_URL'),
  keyPrefix: env('QUEUE_PREFIX'),
  retry: { maxAttempts: 6, baseMs: 50, capMs: 400 },
  requestTimeoutMs: 3_000,
  grant: { sql, cipher: TokenCipher.fromConfig(env('TOKEN_ENCRYPTION_KEY'), undefined) },
});
const until = Date.now() + Number(env('CALL_FOR_MS'));
while (Date.now() < until) {
  try {
    await client.request({ method: 'GET', path: '/accounting/connection' });
    process.stdout.write('ok\n');
  } catch (error) {
    process.stdout.write(`err ${error instanceof Error ? error.message : String(error)}\n`);
  }
}
await client.close();
await sql.end({ timeout: 5 });
