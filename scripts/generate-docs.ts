// Regenerates the README's configuration table and .env.example from the zod schema, and the
// HTTP ERP contract's OpenAPI document from the ERP contract's zod schemas.
import { readFileSync, writeFileSync } from 'node:fs';
import { configTable, envExample } from '../src/config-docs.ts';
import { openApiText } from '../src/erp/index.ts';

const BEGIN = '<!-- config-table:begin -->';
const END = '<!-- config-table:end -->';
const readme = readFileSync('README.md', 'utf8');
const start = readme.indexOf(BEGIN);
const end = readme.indexOf(END);
if (start < 0 || end < 0) throw new Error('README.md lacks the config-table markers');
writeFileSync(
  'README.md',
  `${readme.slice(0, start + BEGIN.length)}\n${configTable()}\n${readme.slice(end)}`,
);
writeFileSync('.env.example', envExample());
writeFileSync('docs/erp-http-contract.json', openApiText());
