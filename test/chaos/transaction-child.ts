// A process with the worker's app context (createAppContext) whose transactions meet a PostgreSQL
// restart, for postgres-restart.chaos.test.ts. Prints "open in-flight" with a statement running
// in a transaction; once told "next" (on stdin), "open idle" with a transaction waiting for
// something else (as the webhook receiver waits for Redis inside one), which goes on when told
// "go". The test restarts PostgreSQL after each "open" line. Prints how each transaction ended,
// then a query made after the restarts, and exits 0.
import { createInterface } from 'node:readline';
import postgres from 'postgres';
import { createAppContext } from '../../src/app/index.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';

const config = loadConfig();
const log = createLogger({ level: 'warn', pretty: false });
const pool = postgres(config.DATABASE_URL!, { max: 2, onnotice: () => {} });
const app = createAppContext({
  config,
  log,
  sql: pool,
  redisUrl: config.REDIS_URL!,
  // Never called: only the database is used here.
  endpoint: { baseUrl: 'http://127.0.0.1:9/developer/v1', clientId: 'unused', clientSecret: 'unused' },
});
const lines = createInterface({ input: process.stdin });
const told = (word: string) =>
  new Promise<void>((resolve) => lines.on('line', (line) => line === word && resolve()));
const next = told('next');
const go = told('go');
const outcome = (promise: Promise<unknown>) =>
  promise.then(
    (value) => `resolved ${JSON.stringify(value)}`,
    (error: { code?: string }) => `rejected ${error.code}`,
  );
const say = (line: string) => process.stdout.write(`${line}\n`);

say(
  `in-flight: ${await outcome(
    app.sql.begin(async (tx) => {
      await tx`select 1`;
      say('open in-flight');
      await tx`select pg_sleep(30)`;
    }),
  )}`,
);
await next;
say(
  `idle: ${await outcome(
    app.sql.begin(async (tx) => {
      await tx`select 1`;
      say('open idle');
      await go;
      await tx`select 2`;
    }),
  )}`,
);
await go;
await new Promise((resolve) => setTimeout(resolve, 300));
const [row] = await app.sql<{ n: number }[]>`select 1 as n`;
say(`after: ${row?.n}`);
lines.close();
await app.close();
await pool.end({ timeout: 5 });
process.exit(0);
