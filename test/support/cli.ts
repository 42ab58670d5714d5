import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/ledgersync.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real binary (`node bin/ledgersync.js ...`, which is what `npx ledgersync` runs), in `cwd` if given. */
export function runCli(
  args: string[],
  env: Record<string, string | undefined> = {},
  timeoutMs = 90_000,
  cwd?: string,
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const merged: Record<string, string> = {};
    for (const [key, value] of Object.entries({
      ...process.env,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      ...env,
    })) {
      if (value !== undefined) merged[key] = value; // undefined means "unset it"
    }
    const child = spawn(process.execPath, [BIN, ...args], {
      env: merged,
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A stack frame, printed or inside a JSON log line's `stack`: a command's failure shows none. */
export const STACK_FRAME = /\n\s+at .+:\d+:\d+|\\n\s+at /;

/**
 * stderr's lines that are not JSON log lines below `minLevel` (pino's 40 = warn, 50 = error): the
 * lines an operator reads, beside the log (a first run logs its migrations at info).
 */
export function terminalLines(stderr: string, minLevel = 40): string[] {
  return stderr
    .trim()
    .split('\n')
    .filter((line) => !line.startsWith('{') || (JSON.parse(line) as { level: number }).level >= minLevel);
}
