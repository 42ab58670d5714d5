import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../../src/infra/index.ts';

/** Fails (never skips) when hledger-web is missing: CI installs it (.ci/run). */
export function requireHledgerWeb(): void {
  try {
    execFileSync('hledger-web', ['--version'], { stdio: 'ignore' });
  } catch {
    throw new Error('hledger-web is not installed: apt-get install hledger-web (see .ci/run)');
  }
}

export interface HledgerServer {
  url: string;
  journal: string;
  stop(): Promise<void>;
}

/** hledger-web serving the JSON API (view and add) on a fresh journal, on a free loopback port. */
export async function startHledgerWeb(journalText: string): Promise<HledgerServer> {
  const dir = await mkdtemp(join(tmpdir(), 'ledgersync-hledger-'));
  const journal = join(dir, 'books.journal');
  await writeFile(journal, journalText);
  const port = await freePort();
  const args = ['-f', journal, '--serve-api', '--host', '127.0.0.1', '--port', String(port)];
  const child: ChildProcess = spawn('hledger-web', [...args, '--capabilities=view,add'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`hledger-web exited at start: ${stderr}`);
    const up = await fetch(`${url}/accountnames`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`hledger-web did not answer within 30 s: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    journal,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill();
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
