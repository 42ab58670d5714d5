import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const GUARD = fileURLToPath(new URL('../../../src/commands/stray-rejections.ts', import.meta.url));

/**
 * A real process whose guard is installed for `role`, which leaves one rejection unawaited and,
 * if it is still running 200 ms later, prints "still running" and exits 0.
 */
function strayIn(role: 'command' | 'worker', error: string) {
  const script = `
    import { register } from 'tsx/esm/api';
    register();
    const { guardStrayRejections } = await import(${JSON.stringify(GUARD)});
    guardStrayRejections(${JSON.stringify(role)});
    Promise.reject(${error});
    setTimeout(() => { process.stdout.write('still running'); process.exit(0); }, 200);
  `;
  return spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    cwd: fileURLToPath(new URL('../../..', import.meta.url)),
    timeout: 30_000,
  });
}

const REFUSED = `Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })`;

describe('a database outage that surfaces as a rejection nothing awaited', () => {
  it('README "Exit codes": a command exits 69 with the one outage line, no stack', () => {
    const result = strayIn('command', REFUSED);
    expect(result.status).toBe(69);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'ledgersync: PostgreSQL is unavailable (connect ECONNREFUSED 127.0.0.1:5432); what was done before it went away is kept. Run the command again once the database is back.\n',
    );
  });

  it('the worker keeps running (its jobs meet the outage and are retried)', () => {
    const result = strayIn('worker', REFUSED);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('still running');
  });

  it('any other unawaited rejection is a defect: the process still ends, exit 1', () => {
    const result = strayIn('worker', `new TypeError('a defect')`);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('TypeError: a defect');
  });
});
