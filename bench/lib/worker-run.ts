import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { HEAP_FLAGS } from '../../src/infra/index.ts';
import { type RssSample, RssSampler } from './rss-sampler.ts';
import { spawnTs, type TsChild } from './spawn-ts.ts';
import type { WorkerConfig, WorkerLine } from './worker-config.ts';

type DoneLine = Extract<WorkerLine, { bench: 'done' }>;
export type ProgressLine = Extract<WorkerLine, { bench: 'progress' }>;
type EventLine = Extract<WorkerLine, { bench: 'event' }>;

export interface WorkerRun {
  readonly child: TsChild;
  /** Resolves once the child says it is ready (the button task: subscribed and verified). */
  readonly ready: Promise<void>;
  /** Resolves with the done line and the RSS samples; rejects when the child fails. */
  readonly finished: Promise<WorkerOutcome>;
  readonly progress: ProgressLine[];
  readonly events: EventLine[];
  /** When the child said it was ready (modules loaded, before the work). */
  readonly readyAt: () => number | null;
  /** Asks a long-running child (button) to finish. */
  stop(): void;
}

export interface WorkerOutcome {
  done: DoneLine;
  rss: RssSample[];
  peakRssMB: number;
  /** Where --cpu-prof wrote the profile, when asked. */
  cpuProfileDir?: string;
}

/** Starts bench/worker-child.ts with this config, sampling its RSS every `rssEveryMs`. */
export function startWorker(
  config: WorkerConfig,
  options: { cpuProfileDir?: string; rssEveryMs?: number } = {},
): WorkerRun {
  const progress: ProgressLine[] = [];
  const events: EventLine[] = [];
  let done: DoneLine | undefined;
  let failure: string | undefined;
  let onReady: () => void = () => {};
  let readyAt: number | null = null;
  const ready = new Promise<void>((resolve) => {
    onReady = resolve;
  });
  // The product's heap settings, as its entry points apply them; then any the run was given
  // (`--worker-flags`), which override them: V8 takes a flag's last value.
  const nodeFlags: string[] = [
    ...HEAP_FLAGS,
    ...(process.env.BENCH_WORKER_FLAGS?.split(/\s+/).filter(Boolean) ?? []),
  ];
  if (options.cpuProfileDir) {
    mkdirSync(options.cpuProfileDir, { recursive: true });
    nodeFlags.push('--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`);
  }
  const child = spawnTs(join('bench', 'worker-child.ts'), {
    nodeFlags,
    env: { BENCH_WORKER: JSON.stringify(config) },
    onLine(text) {
      let line: WorkerLine;
      try {
        line = JSON.parse(text) as WorkerLine;
      } catch {
        return;
      }
      if (line.bench === 'ready') {
        readyAt = line.t;
        onReady();
      } else if (line.bench === 'progress') progress.push(line);
      else if (line.bench === 'event') events.push(line);
      else if (line.bench === 'done') done = line;
      else if (line.bench === 'error') failure = line.message;
    },
  });
  const sampler = new RssSampler(child.pid, options.rssEveryMs ?? 200);
  const finished = child.exited.then((code): WorkerOutcome => {
    const rss = sampler.stop();
    if (!done || code !== 0) {
      throw new Error(
        `worker child (${config.task}) exited with ${code}: ${failure ?? child.stderrTail().slice(-2000)}`,
      );
    }
    return {
      done,
      rss,
      peakRssMB: sampler.peakMB,
      ...(options.cpuProfileDir ? { cpuProfileDir: options.cpuProfileDir } : {}),
    };
  });
  finished.catch(() => undefined);
  const readyOrFail = Promise.race([
    ready,
    finished.then(() => {
      throw new Error(`worker child (${config.task}) finished before it was ready`);
    }),
  ]);
  readyOrFail.catch(() => undefined);
  return {
    child,
    ready: readyOrFail,
    finished,
    progress,
    events,
    readyAt: () => readyAt,
    stop: () => child.process.kill('SIGTERM'),
  };
}

/** The RSS sample nearest a moment, MB. */
export function rssNear(rss: readonly RssSample[], at: number): number | null {
  let best: RssSample | undefined;
  for (const s of rss) if (!best || Math.abs(s.at - at) < Math.abs(best.at - at)) best = s;
  return best ? Math.round(best.rssMB) : null;
}

/** RSS (MB) when the run had read `fraction` of `total` objects: the sample nearest that moment. */
export function rssAtProgress(
  rss: readonly RssSample[],
  progress: readonly ProgressLine[],
  total: number,
  fraction: number,
): number | null {
  const line = progress.find((p) => p.read >= total * fraction);
  if (!line) return null;
  let best: RssSample | undefined;
  for (const s of rss) if (!best || Math.abs(s.at - line.t) < Math.abs(best.at - line.t)) best = s;
  return best ? Math.round(best.rssMB) : null;
}

/**
 * Objects per second in each tenth of a run (from the progress lines): a pipeline that slows as
 * its tables grow shows falling rates.
 */
export function ratePerTenth(progress: readonly ProgressLine[], total: number, startedAt: number): number[] {
  const rates: number[] = [];
  let previous = { t: startedAt, read: 0 };
  for (let tenth = 1; tenth <= 10; tenth++) {
    const line = progress.find((p) => p.read >= (total * tenth) / 10);
    if (!line) break;
    const seconds = (line.t - previous.t) / 1000;
    rates.push(seconds > 0 ? Math.round((line.read - previous.read) / seconds) : 0);
    previous = line;
  }
  return rates;
}
