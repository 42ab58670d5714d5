import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The stub stands beside the product, not inside it: its code reaches into the product only for
 * the platform's published schemas (the contract both sides speak) and four pure helpers (the
 * zod-issue wording among them, so a 422 reads like every other schema failure). The
 * product's source never imports the stub statically: the commands that run it load it by name
 * at run time (src/commands/stub-package.ts), so the production build leaves it out.
 */
const PACKAGE = fileURLToPath(new URL('../../', import.meta.url));
const ROOT = resolve(PACKAGE, '../..');
const SHARED_WITH_PRODUCT = [
  'src/platform/schemas/',
  'src/log.ts',
  'src/money.ts',
  'src/canonical-json.ts',
  'src/zod-issues.ts',
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const importsOf = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((m) => m[1]!);

describe('the stub package boundary', () => {
  it('its code imports from the product only the published schemas and the shared pure helpers', () => {
    const files = sources(join(PACKAGE, 'src'));
    expect(files.length).toBeGreaterThan(50);
    const outside: string[] = [];
    for (const file of files) {
      for (const specifier of importsOf(file).filter((s) => s.startsWith('.'))) {
        const target = relative(ROOT, resolve(file, '..', specifier));
        if (!target.startsWith('packages/stub/') && !SHARED_WITH_PRODUCT.some((s) => target.startsWith(s)))
          outside.push(`${relative(ROOT, file)} -> ${target}`);
      }
    }
    expect(outside).toEqual([]);
  });

  it("the product's source never imports the stub statically", () => {
    const offenders = sources(join(ROOT, 'src')).filter((file) =>
      importsOf(file).some((s) => s === '@ledgersync/stub' || s.includes('packages/stub')),
    );
    expect(offenders.map((f) => relative(ROOT, f))).toEqual([]);
  });
});
