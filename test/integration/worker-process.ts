import { type ChildProcess, spawn } from 'node:child_process';
import { BIN } from '../support/cli.ts';

/** A long-running `ledgersync worker` child (the real binary), with its output kept. */
export interface WorkerProcess {
  child: ChildProcess;
  pid: number;
  output(): string;
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Sends the signal and resolves with the exit code (SIGKILL after `timeoutMs`). */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<number | null>;
}

export function startWorkerProcess(args: string[], env: Record<string, string>): WorkerProcess {
  return startCliProcess(['worker', ...args], env);
}

/** Any long-running command of the real binary, run in `cwd` (default: this process's). */
export function startCliProcess(argv: string[], env: Record<string, string>, cwd?: string): WorkerProcess {
  const child = spawn(process.execPath, [BIN, ...argv], {
    env: { ...process.env, LOG_LEVEL: 'warn', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd,
  });
  let text = '';
  const waiters: Array<() => void> = [];
  const append = (chunk: Buffer) => {
    text += chunk.toString();
    for (const wake of waiters.splice(0)) wake();
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    pid: child.pid!,
    output: () => text,
    async waitForLine(pattern, timeoutMs = 45_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const match = text.match(pattern);
        if (match) return match;
        if (child.exitCode !== null || Date.now() > deadline) {
          throw new Error(
            `${argv[0]} did not print ${pattern} (exit ${child.exitCode}):\n${text.slice(-3000)}`,
          );
        }
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
    async stop(signal = 'SIGTERM', timeoutMs = 30_000) {
      if (child.exitCode === null) child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** Pids of the living children of a process (Linux /proc). */
export async function childPids(pid: number): Promise<number[]> {
  const { readFile } = await import('node:fs/promises');
  try {
    const children = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8');
    return children.split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
