#!/usr/bin/env node
// Compiles the worker to plain JavaScript in dist/ for the production image: TypeScript through
// tsc (relative imports rewritten from .ts to .js), then the files the program reads at run time
// beside the code: the SQL migrations and package.json (for --version). The platform stub's package
// (packages/stub) is not compiled: the commands that run it load it by name at run time only.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';

rmSync('dist', { recursive: true, force: true });
execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
  stdio: 'inherit',
});
for (const folder of ['db/migrations', 'db/ledger']) {
  mkdirSync(`dist/${folder}`, { recursive: true });
  for (const name of readdirSync(folder)) {
    if (name.endsWith('.sql')) copyFileSync(`${folder}/${name}`, `dist/${folder}/${name}`);
  }
}
copyFileSync('package.json', 'dist/package.json');
process.stderr.write('build: dist/src/cli.js is the compiled program\n');
