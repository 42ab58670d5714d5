// Starts an embedded redis-server, prints its port, and waits to be killed.
import { startEmbeddedRedis } from '../../src/infra/index.ts';
import { silentLogger } from '../../src/log.ts';

const redis = await startEmbeddedRedis(silentLogger);
process.stdout.write(`${new URL(redis.url).port}\n`);
setInterval(() => {}, 60_000);
