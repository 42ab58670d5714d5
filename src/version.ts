import { readFileSync } from 'node:fs';

/**
 * The version of the package.json beside src/, the one `npm install` put here (scripts/build.mjs
 * copies it beside dist/src/ for the same reason). `--version`, the build-info metric and the
 * worker heartbeat all report this one.
 */
export const VERSION = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
