import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface TsChild {
  readonly pid: number;
  readonly process: ChildProcess;
  /** Resolves with the exit code (null after a signal). */
  readonly exited: Promise<number | null>;
  /** The last lines written to stderr, for error messages. */
  stderrTail(): string;
  /** SIGTERM, then SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

export interface SpawnTsOptions {
  args?: string[];
  env?: Record<string, string>;
  /** Extra node flags, e.g. ['--cpu-prof', '--cpu-prof-dir=...']. */
  nodeFlags?: string[];
  /** Called with every stdout line. */
  onLine?: (line: string) => void;
}

/**
 * Runs a TypeScript file in its own node process (tsx as a loader, no wrapper process), so the
 * pid is the program itself: its RSS and CPU time are its own.
 */
export function spawnTs(file: string, options: SpawnTsOptions = {}): TsChild {
  const child = spawn(
    process.execPath,
    [...(options.nodeFlags ?? []), '--import', 'tsx', file, ...(options.args ?? [])],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  if (child.pid === undefined) throw new Error(`could not start ${file}`);
  const tail: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => {
    tail.push(line);
    if (tail.length > 40) tail.shift();
    if (process.env.BENCH_DEBUG) process.stderr.write(`[${file}] ${line}\n`);
  });
  createInterface({ input: child.stdout! }).on('line', (line) => options.onLine?.(line));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    pid: child.pid,
    process: child,
    exited,
    stderrTail: () => tail.join('\n'),
    async stop(graceMs = 5000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Resolves with the first stdout line that parses as JSON, or rejects when the child exits first. */
export function firstJsonLine<T>(file: string, options: Omit<SpawnTsOptions, 'onLine'> = {}) {
  let resolveLine: (value: T) => void = () => {};
  const line = new Promise<T>((resolve) => {
    resolveLine = resolve;
  });
  let seen = false;
  const child = spawnTs(file, {
    ...options,
    onLine(text) {
      if (seen) return;
      try {
        const value = JSON.parse(text) as T;
        seen = true;
        resolveLine(value);
      } catch {
        // not the line we wait for
      }
    },
  });
  const ready = Promise.race([
    line,
    child.exited.then((code) => {
      throw new Error(`${file} exited with ${code} before it was ready:\n${child.stderrTail()}`);
    }),
  ]);
  return { child, ready };
}
