import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { PullWorkerConfig, PullWorkerReport } from './pull-worker.ts';

/**
 * Runs `workers` separate processes (pull-worker.ts), each with its own platform client, that
 * share only Redis and the source IP; starts them together once all hold a token, and collects
 * their reports (in worker order, priority workers first). Used by the fairness tests and by
 * test/bench/limiter-fairness.ts.
 */
export interface PullRun {
  startedAt: number;
  until: number;
  reports: PullWorkerReport[];
}

const WORKER = fileURLToPath(new URL('./pull-worker.ts', import.meta.url));

export async function runPullWorkers(
  config: PullWorkerConfig,
  options: {
    workers: number;
    durationMs: number;
    settleMs: number;
    /** How many of the workers pull in the priority lane (the first ones; default none). */
    priorityWorkers?: number;
    /** What differs for the priority workers (their concurrency, a pace). */
    priorityConfig?: Partial<PullWorkerConfig>;
  },
): Promise<PullRun> {
  const children: ChildProcess[] = [];
  const exits: Array<Promise<void>> = [];
  try {
    for (let i = 0; i < options.workers; i++) {
      const priority = i < (options.priorityWorkers ?? 0);
      const own = priority ? { ...config, ...options.priorityConfig, priority } : config;
      const child = fork(WORKER, [JSON.stringify(own)], {
        execArgv: ['--import', 'tsx'],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      children.push(child);
      exits.push(new Promise((resolve) => child.once('exit', () => resolve())));
    }
    await Promise.all(children.map((child) => nextMessage(child, 'ready')));
    // Let the token requests leave the window before the run starts.
    await new Promise((resolve) => setTimeout(resolve, options.settleMs));
    const startedAt = Date.now();
    const until = startedAt + options.durationMs;
    const done = children.map((child) => nextMessage(child, 'done') as Promise<PullWorkerReport>);
    for (const child of children) child.send({ type: 'go', until });
    const reports = await Promise.all(done);
    await Promise.all(exits);
    return { startedAt, until, reports };
  } finally {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill();
    await Promise.all(exits);
  }
}

function nextMessage(child: ChildProcess, type: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: { type?: string }) => {
      if (message?.type !== type) return;
      cleanup();
      resolve(message);
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`pull worker exited (${code}) before "${type}"`));
    };
    const cleanup = () => {
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/** Most arrivals inside any window of windowMs (a window starts at each arrival). */
export function maxInAnyWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let lo = 0;
  for (let hi = 0; hi < sorted.length; hi++) {
    while (sorted[hi]! - sorted[lo]! >= windowMs) lo++;
    best = Math.max(best, hi - lo + 1);
  }
  return best;
}
