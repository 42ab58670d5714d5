import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HEAP_FLAGS } from '../../../src/infra/heap-flags.ts';

const read = (file: string) => readFileSync(new URL(`../../../${file}`, import.meta.url), 'utf8');

describe('heap settings of the long-running commands (src/infra/heap-flags.ts)', () => {
  it('the production image starts the compiled program with them', () => {
    // The last stage is the production image (an earlier one runs the stub for compose).
    const entry = read('Dockerfile')
      .split('\n')
      .findLast((line) => line.startsWith('ENTRYPOINT'));
    expect(JSON.parse(entry!.slice('ENTRYPOINT'.length))).toEqual(['node', ...HEAP_FLAGS, 'dist/src/cli.js']);
  });

  it('bin/ledgersync.js passes them in its shebang', () => {
    const shebang = read('bin/ledgersync.js').split('\n')[0];
    expect(shebang).toBe(`#!/usr/bin/env -S node ${HEAP_FLAGS.join(' ')}`);
  });
});
