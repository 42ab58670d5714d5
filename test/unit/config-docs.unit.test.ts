import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configTable, envExample } from '../../src/config-docs.ts';

describe('configuration docs', () => {
  it('the README configuration table matches the schema (regenerate with npm run docs)', () => {
    expect(readFileSync('README.md', 'utf8')).toContain(configTable());
  });

  it('.env.example matches the schema', () => {
    expect(readFileSync('.env.example', 'utf8')).toBe(envExample());
  });
});
