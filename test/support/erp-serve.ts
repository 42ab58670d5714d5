import { type ChildProcess, spawn } from 'node:child_process';
import { BIN } from './cli.ts';

/** The environment of a spawned binary: this process's, quiet logs, test mode, then `env`. */
export function cliEnv(env: Record<string, string>): Record<string, string> {
  const merged: Record<string, string> = { LOG_LEVEL: 'warn', NODE_ENV: 'test' };
  for (const [key, value] of Object.entries({ ...process.env, ...env }))
    if (value !== undefined) merged[key] = value;
  return merged;
}

/**
 * `ledgersync erp serve --port 0` over LEDGER_SCHEMA of `env`, through the real binary; resolves
 * its URL once it prints it. The caller stops it with `child.kill('SIGTERM')`.
 */
export function startErpServe(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [BIN, 'erp', 'serve', '--port', '0'], {
    env: cliEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => {
    err += d;
  });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const url = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      if (url) resolve({ url, child });
    });
    child.on('exit', (code) => reject(new Error(`erp serve exited ${code}: ${err}`)));
  });
}
