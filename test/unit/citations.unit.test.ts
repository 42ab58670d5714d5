import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * The repository stands on its own: every platform citation points into docs/platform.md and
 * names an entry that exists there; nothing cites a document a person who clones it cannot open.
 */
const root = new URL('../../', import.meta.url);
const files = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter((f) => /\.(ts|js|mjs|md|sql|yml|json|example)$/.test(f) || f.endsWith('.env.example'))
  .filter((f) => !f.startsWith('test/fixtures/') && f !== 'package-lock.json');
const read = (file: string) => readFileSync(new URL(file, root), 'utf8');

describe('citations resolve inside the repository', () => {
  it('no file cites a document outside the repository', () => {
    // Built from parts so that this file does not match itself.
    const outside = new RegExp(
      ['PLATFORM-', 'FACTS', '|spec 00[0-2]|', 'DESIGN', '\\.md|\\.\\./', 'shared'].join(''),
    );
    const offenders = files.filter((f) => outside.test(read(f)));
    expect(offenders).toEqual([]);
  });

  it('every docs/platform.md F/G number cited is an entry of docs/platform.md', () => {
    const platform = read('docs/platform.md');
    const entries = new Set([...platform.matchAll(/^\*\*([FG]\d+) /gm)].map((m) => m[1]));
    expect(entries.size).toBeGreaterThan(60);
    const missing = new Set<string>();
    for (const file of files) {
      for (const match of read(file).matchAll(/docs\/platform\.md((?:[ ,;–-]+(?:and )?[FG]\d+)+)/g)) {
        for (const [id] of match[1]!.matchAll(/[FG]\d+/g))
          if (!entries.has(id)) missing.add(`${file}: ${id}`);
      }
    }
    expect([...missing]).toEqual([]);
  });
});
