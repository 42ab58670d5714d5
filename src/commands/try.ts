import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { ENV_FILE, readEnvFile } from '../env-file.ts';
import { EXIT } from '../exit-codes.ts';
import { onShutdown } from '../infra/index.ts';
import { scrubString } from '../secrets.ts';
import { CommandError, withRuntime } from './runtime.ts';
import { loadStubOrExit, port } from './stub.ts';
import type { RunningStub, StubPackage } from './stub-package.ts';
import { setUpStubWorld } from './stub-world.ts';
import { withApp } from './with-app.ts';
import { stopSignal } from './worker.ts';

/**
 * `ledgersync try`: the step from the demo to running the commands yourself. It runs the
 * built-in stub in the foreground with the world docker-compose.yml's `setup` service makes
 * (src/commands/stub-world.ts), writes the settings that point at it to `.env` (which every
 * command run from this folder reads), and prints the commands to run next in another shell.
 * PostgreSQL and Redis need no setting: the embedded ones in EMBEDDED_DATA_DIR are shared by
 * every ledgersync process of this folder.
 */

const say = (line: string) => process.stdout.write(`${line}\n`);

/** What a shell needs to reach the stub this command runs. */
function stubSettings(stub: RunningStub, client: StubPackage['DEFAULT_CLIENT']): Record<string, string> {
  return {
    PLATFORM_BASE_URL: stub.apiUrl,
    // The stub's fixed development client (docs/stub.md): not a secret of any real service.
    PLATFORM_CLIENT_ID: client.client_id,
    PLATFORM_CLIENT_SECRET: client.client_secret,
  };
}

const lines = (settings: Record<string, string>) =>
  Object.entries(settings).map(([key, value]) => `${key}=${value}`);

const HEADER = '# Written by `npx ledgersync try`: the built-in platform stub it runs (docs/stub.md).';

/**
 * Writes `.env` when there is none, or when `try` wrote it (the stub's port may have changed).
 * Any other one is the operator's: never rewritten, only checked; the lines to put in it are
 * printed when it points elsewhere.
 */
function pointEnvFileAt(settings: Record<string, string>): void {
  const path = resolve(ENV_FILE);
  const existing = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  if (existing === undefined || existing.startsWith(HEADER)) {
    writeFileSync(path, [HEADER, ...lines(settings), ''].join('\n'));
    say(`Settings   written to ${path}; every command run from this folder reads it:`);
    for (const line of lines(settings)) say(`             ${line}`);
    return;
  }
  const current = readEnvFile();
  if (Object.entries(settings).every(([key, value]) => current[key] === value)) {
    say(`Settings   ${path} already points at this stub`);
    return;
  }
  say(`Settings   ${path} exists and is left as it is; to use this stub, put these lines in it:`);
  for (const line of lines(settings)) say(`             ${line}`);
}

/** A shell variable that would win over `.env` and point the other commands elsewhere. */
function overridingVariables(settings: Record<string, string>): string[] {
  return Object.entries(settings)
    .filter(([key, value]) => process.env[key] !== undefined && process.env[key] !== value)
    .map(([key]) => key);
}

export function registerTryCommand(program: Command, defaultPort: () => number): void {
  program
    .command('try')
    .description(
      'run the built-in platform stub with a seeded world in the foreground and point this folder at it (.env), to run the other commands yourself',
    )
    .option('--port <n>', 'port of the stub (0 = any free port)', port)
    .action(async (options: { port?: number }) => {
      const { DEFAULT_CLIENT, startStub } = await loadStubOrExit();
      return withRuntime(async (runtime) => {
        const { config, log, services } = runtime;
        if (config.ERP !== 'ledger')
          throw new CommandError('try works on the built-in ERP (ERP=ledger)', EXIT.usage);
        const stubPort = options.port ?? defaultPort();
        const stub = await startStub({ port: stubPort, log }).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'EADDRINUSE') throw error;
          throw new CommandError(
            `port ${stubPort} is in use (a stub or another \`try\` already running?): stop it, or pass --port`,
            EXIT.unavailable,
          );
        });
        onShutdown(() => stub.close(), log);
        const settings = stubSettings(stub, DEFAULT_CLIENT);
        say(`Platform   built-in stub at ${stub.apiUrl}`);
        const world = await withApp({ ...runtime, config: { ...config, ...settings } }, (app) =>
          setUpStubWorld({
            sql: runtime.sql,
            ledgerSchema: config.LEDGER_SCHEMA,
            platform: app.platform,
            stubUrl: stub.url,
            log,
          }),
        );
        say(
          `ERP        built-in, schema ${config.LEDGER_SCHEMA}: ${world.ledger.accounts} GL accounts added, books opened for ${world.booksOpened} more platform entities`,
        );
        say(`Connection ${world.connectionId} (active)`);
        say(
          `Ready      ${Object.entries(world.ready)
            .map(([kind, n]) => `${n} ${kind}`)
            .join(', ')}`,
        );
        say(
          `Services   PostgreSQL ${scrubString(services.databaseUrl)}, Redis ${scrubString(services.redisUrl)}: ${config.DATABASE_URL ? 'from your settings' : `the embedded ones in ${config.EMBEDDED_DATA_DIR}/, shared by every command run from this folder (no setting needed)`}`,
        );
        // From here a signal is the normal end, as for the worker: the stub closes, exit 0.
        const stopped = stopSignal();
        pointEnvFileAt(settings);
        const overriding = overridingVariables(settings);
        if (overriding.length > 0)
          say(`Warning    your shell sets ${overriding.join(', ')}, which win over .env: unset them first`);
        say('Next       in another shell, in this folder:');
        say('             npx ledgersync sync all   # mirror the chart, sync every ready object');
        say('             npx ledgersync status     # what was synced, what failed and why');
        say('             npx ledgersync worker     # keep syncing on schedule (Ctrl-C stops it)');
        say('The stub keeps this world until you stop it here (Ctrl-C).');
        await stopped;
        return EXIT.ok;
      });
    });
}
