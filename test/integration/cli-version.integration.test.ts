import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.ts';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

describe('ledgersync --version through the real binary', () => {
  it('prints the package version on stdout alone and exits 0, even with a broken environment', async () => {
    for (const flag of ['--version', '-V']) {
      const result = await runCli([flag], { DATABASE_URL: 'not a url', RATE_LIMIT_MAX: 'many' });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe(`${version}\n`);
    }
  });
});
