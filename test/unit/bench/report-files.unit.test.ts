import { execFileSync } from 'node:child_process';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportFiles } from '../../../bench/lib/report.ts';

const startedAt = '2025-03-04T10:00:00.000Z';

describe('where a bench run writes its report', () => {
  it('a full run writes the tracked latest.json', () => {
    expect(reportFiles({ mode: 'full', startedAt }).map((f) => basename(f))).toEqual([
      'latest.json',
      '2025-03-04T10-00-00.000Z.json',
    ]);
  });

  it('a quick run never overwrites latest.json; it writes quick.json, which git ignores', () => {
    const files = reportFiles({ mode: 'quick', startedAt });
    expect(files.map((f) => basename(f))).toEqual(['quick.json', '2025-03-04T10-00-00.000Z-quick.json']);
    // `git check-ignore` prints the paths it ignores: both files the quick run writes.
    const ignored = execFileSync('git', ['check-ignore', ...files], { encoding: 'utf8' })
      .trim()
      .split('\n');
    expect(ignored).toEqual(files);
  });
});
