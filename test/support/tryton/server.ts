import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { freePort, processAlive, withFileLock } from '../../../src/infra/index.ts';
import { TRYTOND } from './install.ts';

/**
 * One trytond for every test process of a run, on a loopback port, serving every test database
 * of the test PostgreSQL. The first process starts it under a file lock; later ones reuse it.
 * Each test process registers itself and its parent (the test runner); a detached watchdog
 * stops trytond once none of them is alive, so nothing outlives the run, even a killed one.
 */

const run = promisify(execFile);

export const STATE_DIR = resolve('.ledgersync', 'tryton');

interface ServerState {
  pid: number;
  port: number;
  databaseUri: string;
}

/** postgres://user:pw@host:port/db → postgresql://user:pw@host:port/ (trytond appends names). */
export function trytonDatabaseUri(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  return `postgresql://${url.username}:${url.password}@${url.hostname}:${url.port}/`;
}

function configPath(): string {
  return join(STATE_DIR, 'trytond.conf');
}

/** The config trytond and trytond-admin read: the test PostgreSQL, loopback only. */
async function writeConfig(databaseUri: string, port: number): Promise<void> {
  await mkdir(join(STATE_DIR, 'files'), { recursive: true });
  const text = [
    '[database]',
    `uri = ${databaseUri}`,
    `path = ${join(STATE_DIR, 'files')}`,
    'list = False',
    '[web]',
    `listen = 127.0.0.1:${port}`,
    '',
  ].join('\n');
  await writeFile(configPath(), text, { mode: 0o600 });
}

/** Whether a trytond answers at `url` (its root): a JSON-RPC version call, within 2 s. */
export async function trytonAnswers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 0, method: 'common.server.version', params: [] }),
      signal: AbortSignal.timeout(2_000),
    });
    await response.text();
    return response.ok;
  } catch {
    return false;
  }
}

async function readState(): Promise<ServerState | undefined> {
  try {
    return JSON.parse(await readFile(join(STATE_DIR, 'server.json'), 'utf8')) as ServerState;
  } catch {
    return undefined;
  }
}

const WATCHDOG = `
while :; do
  alive=0
  for f in "$USERS"/*; do
    [ -e "$f" ] || continue
    if kill -0 "\${f##*/}" 2>/dev/null; then alive=1; else rm -f "$f"; fi
  done
  [ "$alive" = 1 ] || break
  kill -0 "$PID" 2>/dev/null || exit 0
  sleep 1
done
kill "$PID" 2>/dev/null
sleep 3
kill -9 "$PID" 2>/dev/null
exit 0
`;

/** Starts trytond and its watchdog fully detached: this process keeps no handle on them. */
async function startServer(databaseUri: string, usersDir: string): Promise<ServerState> {
  const port = await freePort();
  await writeConfig(databaseUri, port);
  const log = join(STATE_DIR, 'trytond.log');
  const { stdout } = await run('sh', [
    '-c',
    `nohup setsid "${TRYTOND}" -c "${configPath()}" >>"${log}" 2>&1 </dev/null & echo $!`,
  ]);
  const pid = Number(stdout.trim());
  await run('sh', ['-c', 'nohup setsid sh -c "$WATCHDOG" >/dev/null 2>&1 </dev/null &'], {
    env: { ...process.env, WATCHDOG, USERS: usersDir, PID: String(pid) },
  });
  const deadline = Date.now() + 60_000;
  while (!(await trytonAnswers(`http://127.0.0.1:${port}/`))) {
    if (!processAlive(pid)) throw new Error(`trytond exited at start; see ${log}`);
    if (Date.now() > deadline) throw new Error(`trytond did not answer within 60 s; see ${log}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const state = { pid, port, databaseUri };
  await writeFile(join(STATE_DIR, 'server.json'), JSON.stringify(state));
  return state;
}

/** The running trytond for this PostgreSQL (started when needed); returns its root URL. */
export async function ensureTrytonServer(databaseUrl: string): Promise<string> {
  const databaseUri = trytonDatabaseUri(databaseUrl);
  const usersDir = join(STATE_DIR, 'users');
  await mkdir(usersDir, { recursive: true });
  const state = await withFileLock(join(STATE_DIR, 'server.lock'), async () => {
    for (const pid of [process.pid, process.ppid]) await writeFile(join(usersDir, String(pid)), '');
    const existing = await readState();
    if (
      existing &&
      processAlive(existing.pid) &&
      existing.databaseUri === databaseUri &&
      (await trytonAnswers(`http://127.0.0.1:${existing.port}/`))
    ) {
      return existing;
    }
    if (existing && processAlive(existing.pid)) process.kill(existing.pid, 'SIGTERM');
    return startServer(databaseUri, usersDir);
  });
  return `http://127.0.0.1:${state.port}/`;
}
