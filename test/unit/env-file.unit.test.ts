import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config.ts';
import { envExample } from '../../src/config-docs.ts';
import { parseEnvFile, readEnvFile } from '../../src/env-file.ts';

const problemsOf = (text: string): string[] => {
  try {
    parseEnvFile(text, '/x/.env');
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

describe('the .env file', () => {
  it('reads KEY=VALUE lines, comments, blanks, export prefixes and both kinds of quotes', () => {
    const text = [
      '# a comment',
      '',
      'PLATFORM_BASE_URL=http://127.0.0.1:4010/developer/v1',
      '  export LOG_LEVEL = warn   # trailing comment',
      'PLATFORM_CLIENT_SECRET="a b # not a comment \\"quoted\\"\\nnext" # comment',
      "TRYTON_PASSWORD='$literal \\n #'",
      'WEBHOOK_PUBLIC_URL=https://h.example.com/hook#frag',
      'EMPTY=',
      'CRLF=yes\r',
    ].join('\n');
    expect(parseEnvFile(text, '.env')).toEqual({
      PLATFORM_BASE_URL: 'http://127.0.0.1:4010/developer/v1',
      LOG_LEVEL: 'warn',
      PLATFORM_CLIENT_SECRET: 'a b # not a comment "quoted"\nnext',
      TRYTON_PASSWORD: '$literal \\n #',
      WEBHOOK_PUBLIC_URL: 'https://h.example.com/hook#frag',
      EMPTY: '',
      CRLF: 'yes',
    });
  });

  it('a line it cannot read is a configuration error naming the file and line, never the value', () => {
    const problems = problemsOf(
      ['OK=1', 'just some words', 'SECRET="s3cr3t-unclosed', '2BAD=x', "Q='v' trailing"].join('\n'),
    );
    expect(problems).toEqual([
      expect.stringMatching(/^\/x\/\.env line 2: is not KEY=VALUE/),
      expect.stringMatching(/^\/x\/\.env line 3: the value of SECRET .*never closed/),
      expect.stringMatching(/^\/x\/\.env line 4: is not KEY=VALUE/),
      expect.stringMatching(/^\/x\/\.env line 5: the value of Q has text after the closing quote/),
    ]);
    expect(problems.join('\n')).not.toContain('s3cr3t');
  });

  it('.env.example, copied as it ships, reads as no settings', () => {
    expect(parseEnvFile(envExample(), '.env')).toEqual({});
  });

  const dir = mkdtempSync(join(tmpdir(), 'env-file-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is read from the given folder, and its absence means no settings', () => {
    expect(readEnvFile(dir)).toEqual({});
    writeFileSync(join(dir, '.env'), 'STUB_PORT=4999\n');
    expect(readEnvFile(dir)).toEqual({ STUB_PORT: '4999' });
  });
});
