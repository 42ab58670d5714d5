import { readdirSync } from 'node:fs';
import { posix } from 'node:path';
import ts from 'typescript';

/** The repository's root, for the checks that read its source files. */
export const REPO_ROOT = new URL('../../../', import.meta.url);

/** The .ts files under a folder of the repository, as repository paths with forward slashes. */
export function tsFiles(folder: string): string[] {
  return readdirSync(new URL(folder, REPO_ROOT), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => `${folder}/${f.split('\\').join('/')}`);
}

/**
 * Every specifier a file's text imports or re-exports, statically or dynamically, as TypeScript's
 * own pre-processing finds them (comments and strings that merely mention a path are not imports).
 */
export function specifiersOf(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map(({ fileName }) => fileName);
}

/** A relative specifier of `file`, resolved to a repository path. */
export function resolvedFrom(file: string, specifier: string): string {
  return posix.normalize(posix.join(posix.dirname(file), specifier));
}
