import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { QUEUE_NAMES } from '../../../src/queue/payloads.ts';

/** A section of docs/operations.md, from its heading to the next one of the same level. */
function section(heading: string): string {
  const doc = readFileSync('docs/operations.md', 'utf8');
  return doc.split(`\n## ${heading}\n`)[1]!.split('\n## ')[0]!;
}

describe('docs/operations.md names every queue', () => {
  it('"Queue dashboard" lists each queue the dashboard shows', () => {
    const text = section('Queue dashboard');
    for (const name of Object.values(QUEUE_NAMES)) expect(text, name).toContain(`\`${name}\``);
  });

  it('the ledgersync_queue_jobs metric lists each queue', () => {
    const row = readFileSync('docs/operations.md', 'utf8')
      .split('\n')
      .find((line) => line.startsWith('| `ledgersync_queue_jobs`'));
    for (const name of Object.values(QUEUE_NAMES)) expect(row, name).toContain(`\`${name}\``);
  });
});
