import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** The stub as a process: src/main.ts (benchmarks) and runStubCommand (the CLI's `stub`). */

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
const INDEX = new URL('../../src/index.ts', import.meta.url).href;

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => {
      lines.close();
      resolve(line);
    });
    child.once('exit', (code) => reject(new Error(`exited early with ${code}`)));
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code, signal) => resolve(code ?? (signal as unknown as number)));
  });
}

describe('stub processes', () => {
  it('src/main.ts prints one JSON line {url} once listening, serves, and stops on SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        MAIN,
        '--port',
        '0',
        '--rate-max',
        '50',
        '--rate-window-ms',
        '1000',
        '--latency-ms',
        '0',
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const line = JSON.parse(await firstLine(child)) as { url: string; apiUrl: string };
      expect(line.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(line.apiUrl).toBe(`${line.url}/developer/v1`);
      const health = await fetch(`${line.url}/__stub/health`);
      expect(health.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited(child)).toBe(0);
  });

  it('runStubCommand prints the listening line and stops cleanly on SIGINT', async () => {
    const script = `import('${INDEX}').then((m) => m.runStubCommand({ port: 0 })).then(() => process.exit(0));`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const line = await firstLine(child);
      expect(line).toMatch(/^svc platform stub listening on http:\/\/127\.0\.0\.1:\d+\/developer\/v1$/);
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited(child)).toBe(0);
  });
});
