import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TrytonSyncWorld } from './tryton-world.ts';

const CHILD = fileURLToPath(new URL('./sync-child.ts', import.meta.url));

export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  /** Whether it printed "erp-written" (PAUSE_AFTER_ERP_WRITE). */
  wrote: boolean;
  /** What it printed: a summary per kind it finished (JSON lines), and the markers above. */
  stdout: string;
}

export interface SyncChildOptions {
  /** Kill it with SIGKILL once it wrote to Tryton (it pauses there, before the report). */
  afterErpWrite?: boolean;
  /** Kill it with SIGKILL this long after its first batch of objects went to Tryton. */
  afterWritingMs?: number;
  /** Where it reaches Tryton (default: the world's server). */
  trytonUrl?: string;
  /** The adapter's call timeout, which is also how long it lets an interrupted call settle. */
  trytonTimeoutMs?: number;
}

export interface SyncChild {
  exit: Promise<ChildExit>;
  kill(): void;
}

/** A sync worker process over the world's stub, schema, Redis and Tryton (sync-child.ts). */
export function startSyncChild(world: TrytonSyncWorld, options: SyncChildOptions = {}): SyncChild {
  const env = {
    ...process.env,
    DATABASE_URL: world.db.url,
    SCHEMA: world.db.schema,
    STUB_API_URL: world.stub.apiUrl,
    REDIS_URL: world.redis.url,
    REDIS_PREFIX: world.redis.prefix,
    CONNECTION_ID: world.connectionId,
    TRYTON_URL: options.trytonUrl ?? world.tryton.url,
    TRYTON_DATABASE: world.tryton.database,
    TRYTON_USER: world.tryton.user,
    TRYTON_PASSWORD: world.tryton.password,
    KINDS: 'transactions,bills',
    PAUSE_AFTER_ERP_WRITE: options.afterErpWrite ? '1' : '0',
    ...(options.trytonTimeoutMs ? { TRYTON_TIMEOUT_MS: String(options.trytonTimeoutMs) } : {}),
  };
  const child = spawn(process.execPath, ['--import', 'tsx/esm', CHILD], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let wrote = false;
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  let timer: NodeJS.Timeout | null = null;
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => {
    const text = d.toString();
    stdout += text;
    if (options.afterWritingMs !== undefined && !timer && text.includes('erp-writing'))
      timer = setTimeout(() => child.kill('SIGKILL'), options.afterWritingMs);
    if (options.afterErpWrite && text.includes('erp-written')) {
      wrote = true;
      child.kill('SIGKILL');
    }
  });
  const exit = new Promise<ChildExit>((resolve) =>
    child.on('exit', (code, signal) => {
      if (timer) clearTimeout(timer);
      resolve({ code, signal, stderr, wrote, stdout });
    }),
  );
  return { exit, kill: () => child.kill('SIGKILL') };
}
