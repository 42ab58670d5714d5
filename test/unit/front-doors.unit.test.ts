import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, resolvedFrom, specifiersOf, tsFiles } from './support/repo-sources.ts';

/**
 * Modules have front doors (docs/decisions.md "Modules with front doors"): a folder of src with an
 * index.ts is a module, and code outside it imports it through that index.ts only, so what a module
 * offers is written in one file and its insides can change freely. A module's own tests
 * (test/unit/<its path>/ and test/integration/<its path>/) may reach inside it.
 */
const sources = ['src', 'jobs', 'bench', 'test', 'db', 'scripts'].flatMap(tsFiles);
const modules = sources
  .filter((f) => f.startsWith('src/') && f.endsWith('/index.ts'))
  .map((f) => posix.dirname(f))
  .sort((a, b) => b.length - a.length);

/** The deep imports of one file: specifiers into a module it is outside of, other than its index.ts. */
function deepImports(file: string, text: string, mods: readonly string[]): string[] {
  const found: string[] = [];
  for (const spec of specifiersOf(text).filter((s) => s.startsWith('.'))) {
    const target = resolvedFrom(file, spec);
    for (const mod of mods) {
      if (!target.startsWith(`${mod}/`) || file.startsWith(`${mod}/`)) continue;
      const ownTests = ['unit', 'integration'].some((k) => file.startsWith(`test/${k}/${mod.slice(4)}/`));
      if (ownTests || target === `${mod}/index.ts`) break;
      found.push(`${file} → ${target} (use ${mod}/index.ts)`);
      break;
    }
  }
  return found;
}

describe('modules have front doors', () => {
  it('finds the modules (folders of src with an index.ts)', () => {
    expect(modules).toContain('src/sync/reporting');
    expect(modules).toContain('src/erp');
  });

  it('flags an import reaching inside a module from outside, and only that', () => {
    const mods = ['src/erp/kit', 'src/erp'];
    const text = [
      "import { a } from '../erp/ledger/ledger-erp.ts';",
      "import type { b } from '../erp/index.ts';",
      "export { c } from '../erp/kit/subject.ts';",
      "const d = await import('../erp/kit/index.ts');",
    ].join('\n');
    expect(deepImports('src/app/x.ts', text, mods)).toEqual([
      'src/app/x.ts → src/erp/ledger/ledger-erp.ts (use src/erp/index.ts)',
      'src/app/x.ts → src/erp/kit/subject.ts (use src/erp/kit/index.ts)',
    ]);
    // Inside the module, and the module's own tests, may reach in.
    expect(deepImports('src/erp/http/y.ts', "import { a } from '../ledger/ledger-erp.ts';", mods)).toEqual(
      [],
    );
    expect(
      deepImports(
        'test/unit/erp/z.test.ts',
        "import { a } from '../../../src/erp/ledger/ledger-erp.ts';",
        mods,
      ),
    ).toEqual([]);
  });

  it('no file imports a module other than through its index.ts', () => {
    const deep = sources.flatMap((f) => deepImports(f, readFileSync(new URL(f, REPO_ROOT), 'utf8'), modules));
    expect(deep).toEqual([]);
  });
});
