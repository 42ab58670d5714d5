// An object-sync worker process for the stalled-job test: works the object-sync queue with a
// 2-second job lock, prints "ready", and is killed with SIGKILL mid-job by the test.
import postgres from 'postgres';
import { startWorkers } from '../../../jobs/worker.ts';
import { createAppContext } from '../../../src/app/index.ts';
import { loadConfig } from '../../../src/config.ts';
import { createLogger } from '../../../src/log.ts';
import { createQueues } from '../../../src/queue/index.ts';

const config = loadConfig();
const log = createLogger({ level: 'warn', pretty: false });
const sql = postgres(config.DATABASE_URL!, {
  max: 4,
  onnotice: () => {},
  connection: { search_path: config.DATABASE_SCHEMA },
});
const app = createAppContext({
  config,
  log,
  sql,
  redisUrl: config.REDIS_URL!,
  endpoint: {
    baseUrl: config.PLATFORM_BASE_URL!,
    clientId: config.PLATFORM_CLIENT_ID!,
    clientSecret: config.PLATFORM_CLIENT_SECRET!,
  },
});
const connection = { redisUrl: config.REDIS_URL!, prefix: config.QUEUE_PREFIX };
const workers = startWorkers(app, {
  connection,
  queues: createQueues(connection),
  queuesToWork: ['objectSync'],
  // The stalled check is throttled queue-wide by the last checker's interval: keep it short too.
  tuning: { lockDuration: 2_000, stalledInterval: 1_000 },
});
await workers.workers[0]!.waitUntilReady();
process.stdout.write('ready\n');
