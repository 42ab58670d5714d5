import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { posix } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BACKUP_DIR } from '../../src/sync/connection-migration/index.ts';
import { nodeRangeAdmits } from './node-range.ts';

/**
 * What the Dockerfile, docker-compose.yml, package.json, .nvmrc, LICENSE and README say about
 * running the product, checked against each other and against the code, without a Docker engine.
 */
const root = new URL('../../', import.meta.url);
const read = (file: string) => readFileSync(new URL(file, root), 'utf8');
const pkg = JSON.parse(read('package.json')) as {
  license: string;
  engines: { node: string };
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  optionalDependencies: Record<string, string>;
};
const lock = JSON.parse(read('package-lock.json')) as {
  packages: Record<string, { version?: string; dev?: boolean; engines?: { node?: string } }>;
};

/** The Dockerfile's instructions, continuation lines joined. */
function dockerfileInstructions(): { keyword: string; args: string }[] {
  return read('Dockerfile')
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'))
    .map((line) => {
      const [, keyword = '', args = ''] = /^(\S+)\s+(.*)$/.exec(line.trim())!;
      return { keyword: keyword.toUpperCase(), args };
    });
}

/** The Dockerfile's instructions from its last FROM: the run stage. */
function runStage(): { keyword: string; args: string }[] {
  const instructions = dockerfileInstructions();
  const from = instructions.map((i) => i.keyword).lastIndexOf('FROM');
  return instructions.slice(from);
}
const last = (stage: { keyword: string; args: string }[], keyword: string) =>
  stage.filter((i) => i.keyword === keyword).at(-1)?.args;

/** A top-level block of docker-compose.yml's service, by its indentation (no YAML parser here). */
function composeBlock(path: string[]): string {
  let text = read('docker-compose.yml');
  path.forEach((key, depth) => {
    const indent = '  '.repeat(depth);
    const start = text.search(new RegExp(`^${indent}${key}:`, 'm'));
    expect(start, `docker-compose.yml has ${path.slice(0, depth + 1).join('.')}`).toBeGreaterThanOrEqual(0);
    const rest = text.slice(start).split('\n');
    const end = rest.findIndex((line, i) => i > 0 && line.trim() && !line.startsWith(`${indent} `));
    text = rest.slice(0, end === -1 ? undefined : end).join('\n');
  });
  return text;
}

const engineFloor = /^>=\s*(\d+(?:\.\d+){0,2})$/.exec(pkg.engines.node)?.[1];
const nodeMajor = read('.nvmrc').trim();

describe('the production image and compose file', () => {
  const stage = runStage();
  const workdir = last(stage, 'WORKDIR')!;
  const user = last(stage, 'USER')!;
  const backupDir = posix.resolve(workdir, DEFAULT_BACKUP_DIR);

  it("migrate prepare's default backup folder exists in the image and belongs to the run user", () => {
    expect(user).toBeTruthy();
    const runs = stage.filter((i) => i.keyword === 'RUN').map((i) => i.args);
    expect(runs.some((run) => new RegExp(`mkdir -p [^&;]*${backupDir}(\\s|$)`).test(run))).toBe(true);
    // chown of the folder or of a parent with -R, to the run user.
    const owned = runs.some((run) =>
      [...run.matchAll(/chown (-R )?(\S+) (\S+)/g)].some(
        ([, recursive, owner, path]) =>
          owner!.split(':')[0] === user &&
          (path === backupDir || (recursive && backupDir.startsWith(`${path}/`))),
      ),
    );
    expect(owned).toBe(true);
    // The USER line comes after the folder is made: a RUN as the run user could not create it in /app.
    expect(stage.findIndex((i) => i.keyword === 'USER')).toBeGreaterThan(
      stage.findIndex((i) => i.keyword === 'RUN' && i.args.includes(backupDir)),
    );
  });

  it('the backup folder is a volume of the image and a named volume of the worker in compose', () => {
    expect(JSON.parse(last(stage, 'VOLUME')!)).toContain(backupDir);
    const worker = composeBlock(['services', 'worker']);
    const mounts = JSON.parse(/^ {4}volumes: (\[.*\])$/m.exec(worker)?.[1] ?? '[]') as string[];
    const mount = mounts.find((m) => m.split(':')[1] === backupDir);
    expect(mount, `worker mounts ${backupDir}`).toBeDefined();
    const name = mount!.split(':')[0]!;
    expect(name.startsWith('/') || name.startsWith('.'), 'a named volume, not a host folder').toBe(false);
    expect(composeBlock(['volumes'])).toMatch(new RegExp(`^ {2}${name}:`, 'm'));
  });

  it('the image, .nvmrc and package.json engines name the same Node major', () => {
    expect(nodeMajor).toMatch(/^\d+$/);
    const bases = read('Dockerfile').match(/^FROM node:(\d+)\S*/gm);
    expect(bases?.length).toBeGreaterThanOrEqual(2);
    for (const base of bases!) expect(/node:(\d+)/.exec(base)?.[1]).toBe(nodeMajor);
    expect(engineFloor, `engines.node ${pkg.engines.node} is a >= floor`).toBeDefined();
    expect(engineFloor!.split('.')[0]).toBe(nodeMajor);
  });

  it('the README names the Node version package.json requires', () => {
    expect(read('README.md')).toContain(`Node ${engineFloor} or later`);
  });

  it('the platform stub stays out of the build and the run stage; only its own stage copies it', () => {
    const instructions = dockerfileInstructions();
    let stageName = '';
    const copiers = new Set<string>();
    for (const { keyword, args } of instructions) {
      if (keyword === 'FROM') stageName = / AS (\S+)$/i.exec(args)?.[1] ?? '(run)';
      else if (keyword === 'COPY' && /(^|\s)packages\b/.test(args)) copiers.add(stageName);
    }
    expect([...copiers]).toEqual(['stub']);
    expect(runStage().some((i) => i.keyword === 'COPY' && i.args.includes('packages'))).toBe(false);
    // The compiled program is src, jobs and db: the stub's package is not among them.
    const build = JSON.parse(read('tsconfig.build.json')) as { include: string[] };
    expect(build.include.some((folder) => folder.startsWith('packages'))).toBe(false);
    // docker-compose.yml's stub service runs the stub's own image, not the product's.
    expect(composeBlock(['services', 'stub'])).toMatch(/^ {4}build: \{ context: \., target: stub \}$/m);
  });
});

describe('README', () => {
  it('its contents list links every section, in order', () => {
    const readme = read('README.md');
    const sections = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1]!);
    const anchor = (title: string) =>
      title
        .toLowerCase()
        .replace(/[^a-z0-9 -]/g, '')
        .replaceAll(' ', '-');
    const contents = /\*\*Contents\*\*\n\n((?:- .*\n)+)/.exec(readme)?.[1] ?? '';
    const listed = [...contents.matchAll(/^- \[(.+)\]\(#(.+)\)$/gm)].map((m) => [m[1], m[2]]);
    expect(listed).toEqual(sections.map((title) => [title, anchor(title)]));
  });
});

describe('dependencies', () => {
  const files = execFileSync('git', ['ls-files', 'src', 'jobs', 'db', 'bin'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((f) => /\.(ts|js|mjs)$/.test(f) && !/\.test\.ts$/.test(f));
  const packageOf = (specifier: string) =>
    specifier
      .split('/')
      .slice(0, specifier.startsWith('@') ? 2 : 1)
      .join('/');
  const builtins = new Set(builtinModules);
  const runtime = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.optionalDependencies)]);

  it('every package the program loads is a dependency, not a dev dependency (npm ci --omit=dev installs it)', () => {
    expect(files.length).toBeGreaterThan(100);
    const used = new Map<string, string>();
    for (const file of files) {
      const text = read(file);
      for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
        if (fileName.startsWith('.') || fileName.startsWith('node:') || builtins.has(fileName)) continue;
        used.set(packageOf(fileName), file);
      }
      // Loaded by name at run time, not imported: pino transports.
      for (const [, target] of text.matchAll(/\btransport: \{\s*target: '([^.'][^']*)'/g))
        used.set(packageOf(target!), file);
    }
    expect(used.has('tsx') && used.has('pino-pretty'), 'the scan sees bin/ and the pino transport').toBe(
      true,
    );
    const missing = [...used]
      .filter(([name]) => !runtime.has(name))
      .map(([name, file]) => `${name} (${file})`);
    expect(missing).toEqual([]);
    const dev = [...used.keys()].filter((name) => name in pkg.devDependencies);
    expect(dev).toEqual([]);
  });

  it('every installed runtime package admits the Node version package.json requires, but two checked by hand', () => {
    const refusing = Object.entries(lock.packages)
      .filter(([path, entry]) => path && !entry.dev && entry.engines?.node)
      .filter(([, entry]) => !nodeRangeAdmits(entry.engines!.node!, engineFloor!))
      .map(([path]) => path.replace(/^.*node_modules\//, ''))
      .sort();
    // Both say node >=22 but run on 20.19+: ES modules loaded with require() by @fastify/static and
    // light-my-request, which Node 20.19 allows without a flag (the next test loads them).
    expect(refusing).toEqual(['content-disposition', 'cookie']);
  });

  it('the two packages whose engines say Node 22 load and work through require() on this Node', () => {
    const require = createRequire(new URL('node_modules/@fastify/static/index.js', root));
    const { create } = require('content-disposition') as { create: (name: string) => string };
    expect(create('report 1.pdf')).toBe('attachment; filename="report 1.pdf"');
    const cookie = createRequire(new URL('node_modules/light-my-request/lib/cookies.js', root))('cookie') as {
      stringifySetCookie: (c: { name: string; value: string }) => string;
    };
    expect(cookie.stringifySetCookie({ name: 'a', value: 'b' })).toBe('a=b');
  });

  it('the engines ranges are read as npm reads them', () => {
    expect(nodeRangeAdmits('>=22', '20.19.0')).toBe(false);
    expect(nodeRangeAdmits('>=22.19.0', '22.12.0')).toBe(false);
    expect(nodeRangeAdmits('>=20', '20.19.0')).toBe(true);
    expect(nodeRangeAdmits('18 || 20 || >=22', '20.19.0')).toBe(true);
    expect(nodeRangeAdmits('18 || >=22', '20.19.0')).toBe(false);
    expect(nodeRangeAdmits('^20.19.0 || ^22.13.0 || >=23.5.0', '22.12.0')).toBe(false);
    expect(nodeRangeAdmits('>=16 || 14 >=14.17', '14.16.0')).toBe(false);
    expect(nodeRangeAdmits('>= 10.x', '20.19.0')).toBe(true);
    expect(nodeRangeAdmits('^16 || ^18 || >=20', '19.0.0')).toBe(false);
    expect(nodeRangeAdmits('*', '20.19.0')).toBe(true);
  });
});

describe('licence', () => {
  it("LICENSE holds the licence package.json names, with the contributors' copyright", () => {
    expect(existsSync(new URL('LICENSE', root))).toBe(true);
    const text = read('LICENSE');
    expect(text.split('\n')[0]).toBe(`${pkg.license} License`);
    expect(text).toContain('Copyright (c) ledgersync contributors');
  });
});
