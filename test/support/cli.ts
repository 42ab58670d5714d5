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
