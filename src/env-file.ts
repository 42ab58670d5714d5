import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from './config.ts';

/**
 * The `.env` file of the working directory, in the style of `.env.example`: `KEY=VALUE` lines,
 * `#` comments, blank lines, an optional `export ` prefix, values in double quotes (with \n, \"
 * and \\ escapes) or single quotes (taken as written). Node's own loader (process.loadEnvFile)
 * skips a line it cannot read without a word; here such a line is a configuration error naming
 * the file and the line, since a setting silently dropped is worse than no start. Problems
 * never quote the line: it may hold a secret.
 */

export const ENV_FILE = '.env';

const KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;
const DOUBLE_QUOTE_ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', '"': '"', '\\': '\\' };

/** After a closing quote only blanks or a comment may follow. */
const onlyCommentAfter = (rest: string) => rest.trim() === '' || rest.trimStart().startsWith('#');

/** The value part of one line, or the reason it cannot be read. */
function parseValue(raw: string): { value: string } | { problem: string } {
  const text = raw.trimStart();
  const quote = text[0];
  if (quote === "'") {
    const end = text.indexOf("'", 1);
    if (end < 0) return { problem: 'its single quote is never closed (values span one line)' };
    if (!onlyCommentAfter(text.slice(end + 1))) return { problem: 'has text after the closing quote' };
    return { value: text.slice(1, end) };
  }
  if (quote === '"') {
    let value = '';
    for (let i = 1; i < text.length; i++) {
      const c = text[i] as string;
      if (c === '"') {
        if (!onlyCommentAfter(text.slice(i + 1))) return { problem: 'has text after the closing quote' };
        return { value };
      }
      if (c === '\\' && i + 1 < text.length) {
        const next = text[++i] as string;
        value += DOUBLE_QUOTE_ESCAPES[next] ?? `\\${next}`;
      } else value += c;
    }
    return { problem: 'its double quote is never closed (values span one line)' };
  }
  // Unquoted: a # after a blank starts a comment (a # inside a value, as in a URL, stays).
  const comment = text.search(/\s#/);
  return { value: (comment < 0 ? text : text.slice(0, comment)).trim() };
}

/** Parses the text of an env file; `file` names it in problems. */
export function parseEnvFile(text: string, file: string): Record<string, string> {
  const values: Record<string, string> = {};
  const problems: string[] = [];
  for (const [index, rawLine] of text.split(/\r?\n/).entries()) {
    const line = rawLine.trim();
    if (line === '' || line.startsWith('#')) continue;
    const where = `${file} line ${index + 1}`;
    const body = line.startsWith('export ') ? line.slice('export '.length).trimStart() : line;
    const eq = body.indexOf('=');
    const key = eq < 0 ? '' : body.slice(0, eq).trim();
    if (!KEY.test(key)) {
      problems.push(`${where}: is not KEY=VALUE (a name of letters, digits and _, then =, then the value)`);
      continue;
    }
    const parsed = parseValue(body.slice(eq + 1));
    if ('problem' in parsed) problems.push(`${where}: the value of ${key} ${parsed.problem}`);
    else values[key] = parsed.value;
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return values;
}

/** The settings of `.env` in `dir` (the working directory), or none when there is no such file. */
export function readEnvFile(dir: string = process.cwd()): Record<string, string> {
  const path = resolve(dir, ENV_FILE);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new ConfigError([`${path}: cannot be read (${(error as NodeJS.ErrnoException).code})`]);
  }
  return parseEnvFile(text, path);
}
