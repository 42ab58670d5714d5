import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, processAlive } from '../../src/infra/index.ts';
import { SYSTEM_PYTHON } from '../../test/support/tryton/install.ts';
import { trytonAnswers, trytonDatabaseUri } from '../../test/support/tryton/server.ts';

/**
 * A trytond of the benchmark's own with N worker processes (trytond-workers.py), on the bench's
 * PostgreSQL: apart from the tests' shared trytond, so its CPU is the benchmark's alone.
 */

const LAUNCHER = fileURLToPath(new URL('./trytond-workers.py', import.meta.url));
const DIR = resolve('.ledgersync', 'bench-tryton');

export interface TrytonWorkers {
  url: string;
  /** The parent: its CPU plus its children's is what Tryton spent. */
  pid: number;
  stop(): Promise<void>;
}

export async function startTrytonWorkers(databaseUrl: string, workers: number): Promise<TrytonWorkers> {
  await mkdir(join(DIR, 'files'), { recursive: true });
  const port = await freePort();
  const config = join(DIR, `trytond-${port}.conf`);
  const text = [
    '[database]',
    `uri = ${trytonDatabaseUri(databaseUrl)}`,
    `path = ${join(DIR, 'files')}`,
    'list = False',
    '',
  ].join('\n');
  await writeFile(config, text, { mode: 0o600 });
  const child = spawn(SYSTEM_PYTHON, [LAUNCHER, config, String(port), String(workers)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr = (stderr + d).slice(-2_000);
  });
  const url = `http://127.0.0.1:${port}/`;
  const deadline = Date.now() + 60_000;
  while (!(await trytonAnswers(url))) {
    if (child.exitCode !== null) throw new Error(`trytond workers exited at start: ${stderr}`);
    if (Date.now() > deadline) throw new Error(`trytond workers did not answer within 60 s: ${stderr}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const pid = child.pid!;
  return {
    url,
    pid,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
      if (processAlive(pid)) child.kill('SIGKILL');
    },
  };
}
