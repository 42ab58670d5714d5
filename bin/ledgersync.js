#!/usr/bin/env -S node --max-semi-space-size=16 --max-old-space-size=192 --heap-growing-percent=100
// Runs the TypeScript CLI directly through tsx, so a fresh clone needs no build step. The shebang's
// heap settings are src/infra/heap-flags.ts's.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
