/**
 * The worker side of a benchmark scenario, in its own process so its RSS and CPU are its own.
 * Configured by BENCH_WORKER (JSON, see bench/lib/worker-config.ts); prints JSON lines
 * ({"bench": "ready" | "progress" | "event" | "done" | "error"}) on stdout, logs on stderr.
 *   task sync:   one object sync of one kind (slices, read-ahead), progress lines, then done
 *   task all:    every kind side by side, as `sync all` runs them (no chart), then done
 *   task button: webhook receiver + a sync-button run per sync_requested event, until SIGTERM
 *   task mirror: one chart-of-accounts mirror
 *   task join:   joins the bulk sync another process started (scale-out), then done
 */
import { runAllTask } from './lib/task-all.ts';
import { runButtonTask } from './lib/task-button.ts';
import { runJoinTask } from './lib/task-join.ts';
import { runMirrorTask } from './lib/task-mirror.ts';
import { runSyncTask } from './lib/task-sync.ts';
import { emit, workerConfigFromEnv } from './lib/worker-config.ts';
import { workerDeps } from './lib/worker-deps.ts';

const config = workerConfigFromEnv();
const deps = workerDeps(config);
const stop = new Promise<void>((resolve) => {
  process.once('SIGTERM', () => resolve());
  process.once('SIGINT', () => resolve());
});

const cpuBefore = process.cpuUsage();
const startedAt = Date.now();
try {
  let result: unknown;
  if (config.task === 'sync') {
    emit({ bench: 'ready', t: Date.now() });
    result = await runSyncTask(config, deps, config.connectionId);
  } else if (config.task === 'all') {
    emit({ bench: 'ready', t: Date.now() });
    result = await runAllTask(deps, config.connectionId, config.progressEveryMs);
  } else if (config.task === 'join') {
    result = await runJoinTask(deps, stop);
  } else if (config.task === 'mirror') {
    emit({ bench: 'ready', t: Date.now() });
    result = await runMirrorTask(deps, config.connectionId);
  } else {
    result = await runButtonTask(config, deps, config.connectionId, stop);
  }
  const finishedAt = Date.now();
  const cpu = process.cpuUsage(cpuBefore);
  emit({
    bench: 'done',
    t: finishedAt,
    startedAt,
    finishedAt,
    result,
    cpu: { userMs: Math.round(cpu.user / 1000), systemMs: Math.round(cpu.system / 1000) },
    limiter: deps.client.stats(),
    meter: deps.meter.toJSON(),
    heapUsedMiB: Math.round(process.memoryUsage().heapUsed / 2 ** 20),
  });
  await deps.close();
  process.exitCode = 0;
} catch (error) {
  emit({ bench: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  await deps.close().catch(() => undefined);
  process.exitCode = 1;
}
