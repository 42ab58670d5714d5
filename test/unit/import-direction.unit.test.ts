import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, resolvedFrom, specifiersOf, tsFiles } from './support/repo-sources.ts';

/**
 * Layers point one way (README.md "Layout"): a file imports only layers below its own, never a
 * peer on its own row and never one above. Listed from the top; each row's areas are peers.
 * Inside one area anything goes (its own folder is its business).
 */
const LAYERS: Record<string, string[]>[] = [
  { cli: ['src/cli.ts'] },
  { commands: ['src/commands/'] },
  // The webhook receiver and operator pages, and the processors: the worker command starts both.
  { server: ['src/server/'], jobs: ['jobs/'] },
  { app: ['src/app/'] },
  { operations: ['src/operations/'] },
  { queue: ['src/queue/'] },
  { sync: ['src/sync/'] },
  // The two outside worlds, and the model of one of them; none of the three imports another
  // (the exceptions below name the two borrowings).
  { platform: ['src/platform/'], erp: ['src/erp/'], stub: ['src/stub/', 'packages/stub/'] },
  { infra: ['src/infra/', 'db/'] },
  // The files at the top of src/ but cli.ts: configuration, logging, secrets, exit codes, money.
  { base: ['src/*.ts'] },
];

/** Imports across the rows' rule that the architecture means, each with why. */
const EXCEPTIONS: { from: string; to: string; why: string }[] = [
  {
    from: 'src/erp/http/',
    to: 'src/platform/index.ts',
    why: 'the HTTP ERP retries as the platform client does (backoff), one HTTP attempt with a deadline, shared',
  },
  { from: 'src/stub/', to: 'src/platform/', why: 'the stub answers in the shapes the platform client reads' },
  {
    from: 'src/config.ts',
    to: 'src/erp/index.ts',
    why: "TRYTON_CONCURRENCY's default is the adapter's",
  },
];

/** The stub is a development tool: only the commands that start it may import it. */
const STARTS_THE_STUB = ['src/commands/demo.ts', 'src/commands/stub.ts', 'src/commands/try.ts'];

const rank = new Map<string, number>();
const prefixes: [string, string][] = [];
LAYERS.forEach((row, i) => {
  for (const [area, paths] of Object.entries(row)) {
    rank.set(area, i);
    for (const path of paths) prefixes.push([path, area]);
  }
});
// The longest prefix wins, so `src/*.ts` (base) takes only what src/cli.ts leaves.
prefixes.sort((a, b) => b[0].length - a[0].length);

/** `dir/` is a folder and all below it, `dir/*.ts` the files directly in it, else one file. */
function areaOf(path: string): string | undefined {
  const within = (prefix: string) => {
    if (prefix.endsWith('/*.ts')) return posix.dirname(path) === prefix.slice(0, -5) && path.endsWith('.ts');
    return prefix.endsWith('/') ? path.startsWith(prefix) : path === prefix;
  };
  return prefixes.find(([prefix]) => within(prefix))?.[1];
}

/** Why `from` may not import `to`, or null when it may. */
function refusal(from: string, to: string): string | null {
  const a = areaOf(from);
  const b = areaOf(to);
  if (!a || !b) return `${!a ? from : to} is in no layer`;
  if (b === 'stub' && a !== 'stub' && !STARTS_THE_STUB.includes(from))
    return 'only the commands that start the stub import it';
  if (a === b) return null;
  if (EXCEPTIONS.some((e) => from.startsWith(e.from) && to.startsWith(e.to))) return null;
  if (rank.get(a)! < rank.get(b)!) return null;
  return rank.get(a) === rank.get(b) ? `${a} and ${b} are peers` : `${a} is below ${b}`;
}

/** Where each import of a file leads: a repository path, or the package for a bare specifier. */
function importsOf(file: string): string[] {
  const text = readFileSync(new URL(file, REPO_ROOT), 'utf8');
  return specifiersOf(text).flatMap((fileName) => {
    if (fileName.startsWith('.')) return [resolvedFrom(file, fileName)];
    // A stub published as a workspace package is still the stub.
    return /^(@[^/]+\/)?[^/]*stub\b/.test(fileName) ? ['packages/stub/'] : [];
  });
}

const files = [...tsFiles('src'), ...tsFiles('jobs'), ...tsFiles('db')];
const edges = files.flatMap((from) => importsOf(from).map((to) => ({ from, to })));

describe('imports point down the layers README.md draws', () => {
  it('every source file is in a layer', () => {
    expect(files.filter((f) => !areaOf(f))).toEqual([]);
  });

  for (const area of rank.keys()) {
    it(`${area} imports nothing above it or beside it`, () => {
      const wrong = edges
        .filter(({ from }) => areaOf(from) === area)
        .flatMap(({ from, to }) => {
          const why = refusal(from, to);
          return why ? [`${from} → ${to}: ${why}`] : [];
        });
      expect(wrong).toEqual([]);
    });
  }

  it('reads the imports there are (static, re-exports and dynamic)', () => {
    const of = (file: string) => edges.filter((e) => e.from === file).map((e) => e.to);
    expect(of('src/commands/worker.ts')).toContain('jobs/worker.ts');
    expect(of('src/infra/services.ts')).toContain('src/infra/embedded-postgres.ts');
    expect(of('src/queue/index.ts')).toContain('src/queue/enqueue.ts');
  });

  it('refuses the imports the layers rule out', () => {
    expect(refusal('src/server/webhooks/accept-event.ts', 'jobs/worker.ts')).toBe(
      'server and jobs are peers',
    );
    expect(refusal('src/operations/metrics.ts', 'jobs/worker.ts')).toBe('operations is below jobs');
    expect(refusal('src/sync/objects/sync-objects.ts', 'src/operations/index.ts')).toBe(
      'sync is below operations',
    );
    expect(refusal('src/sync/objects/sync-objects.ts', 'src/queue/index.ts')).toBe('sync is below queue');
    expect(refusal('src/platform/client.ts', 'src/sync/advisory-lock.ts')).toBe('platform is below sync');
    expect(refusal('src/erp/index.ts', 'src/commands/runtime.ts')).toBe('erp is below commands');
    expect(refusal('src/platform/client.ts', 'src/erp/index.ts')).toBe('platform and erp are peers');
    expect(refusal('src/commands/sync.ts', 'src/stub/index.ts')).toBe(
      'only the commands that start the stub import it',
    );
    expect(refusal('src/sync/objects/kinds.ts', 'packages/stub/')).toBe(
      'only the commands that start the stub import it',
    );
    expect(refusal('src/log.ts', 'src/infra/shutdown.ts')).toBe('base is below infra');
  });

  it('allows the imports the layers mean', () => {
    expect(refusal('src/commands/demo.ts', 'src/stub/index.ts')).toBeNull();
    expect(refusal('jobs/worker.ts', 'src/queue/index.ts')).toBeNull();
    expect(refusal('src/server/webhooks/accept-event.ts', 'src/queue/index.ts')).toBeNull();
    expect(refusal('src/sync/objects/sync-objects.ts', 'src/sync/outbox/freeze.ts')).toBeNull();
    expect(refusal('src/erp/http/transport.ts', 'src/platform/index.ts')).toBeNull();
  });
});
