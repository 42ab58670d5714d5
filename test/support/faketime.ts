import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Where Debian's libfaketime package puts its preload library (one directory per architecture). */
function libfaketimePath(): string | null {
  const lib = '/usr/lib';
  const arches = existsSync(lib) ? readdirSync(lib).filter((d) => d.endsWith('-linux-gnu')) : [];
  for (const dir of [...arches.map((a) => join(lib, a, 'faketime')), join(lib, 'faketime')]) {
    const path = join(dir, 'libfaketime.so.1');
    if (existsSync(path)) return path;
  }
  return null;
}

/**
 * The environment that runs a child process with its wall clock `offset` off ("-90s": 90 s
 * behind), as a host whose time sync is off. Only the wall clock moves: timers and the monotonic
 * clock keep real time. Fails (never skips) when libfaketime is missing: CI installs it (.ci/run).
 */
export function skewedClockEnv(offset: string): Record<string, string> {
  const path = libfaketimePath();
  if (!path) throw new Error('libfaketime is not installed: apt-get install faketime (see .ci/run)');
  return { LD_PRELOAD: path, FAKETIME: offset, FAKETIME_DONT_FAKE_MONOTONIC: '1' };
}
