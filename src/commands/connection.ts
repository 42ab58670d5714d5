import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import type { AppContext } from '../app/index.ts';
import { EXIT } from '../exit-codes.ts';
import { ConnectionSettings } from '../platform/index.ts';
import { CommandError, withRuntime } from './runtime.ts';
import { withApp } from './with-app.ts';

const SETTING_NAMES = Object.keys(ConnectionSettings.shape);

/** --set name=true|false, repeatable; names are the five booleans of docs/platform.md F6. */
function setting(value: string, previous: Record<string, boolean> = {}): Record<string, boolean> {
  const [name, raw] = value.split('=');
  if (!name || !SETTING_NAMES.includes(name) || (raw !== 'true' && raw !== 'false')) {
    throw new InvalidArgumentError(`use name=true|false with one of: ${SETTING_NAMES.join(', ')}`);
  }
  return { ...previous, [name]: raw === 'true' };
}

function print(value: unknown, json: boolean | undefined): void {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${JSON.stringify(value, null, 2)}\n`);
}

export function registerConnectionCommands(program: Command): void {
  const connection = program
    .command('connection')
    .description('the platform accounting connection (docs/platform.md F6)');
  const run = (fn: (app: AppContext) => Promise<number>) => withRuntime((runtime) => withApp(runtime, fn));
  connection
    .command('show')
    .description('the active connection and every other one')
    .option('--json', 'print as JSON')
    .action((options: { json?: boolean }) =>
      run(async (app) => {
        const all = (await app.platform.connection.all()).flatMap((c) => (c.ok ? [c.value] : []));
        print({ active: all.find((c) => c.is_active) ?? null, all }, options.json);
        return EXIT.ok;
      }),
    );
  connection
    .command('create')
    .description('create an API connection (active unless --inactive)')
    .requiredOption('--provider <name>', 'the provider name the customer sees')
    .option('--inactive', 'create it inactive (for a migration)')
    .option('--set <name=bool>', 'a setting, repeatable', setting)
    .option('--json', 'print as JSON')
    .action(
      (options: { provider: string; inactive?: boolean; set?: Record<string, boolean>; json?: boolean }) =>
        run(async (app) => {
          const created = await app.platform.connection.create({
            remote_provider_name: options.provider,
            is_active: !options.inactive,
            ...(options.set ? { settings: options.set } : {}),
          });
          print(created, options.json);
          return EXIT.ok;
        }),
    );
  connection
    .command('settings')
    .description('change settings of the active connection (or --id)')
    .option('--id <connection-id>', 'another connection than the active one')
    .option('--set <name=bool>', 'a setting, repeatable', setting)
    .option('--json', 'print as JSON')
    .action((options: { id?: string; set?: Record<string, boolean>; json?: boolean }) =>
      run(async (app) => {
        const id = options.id ?? (await app.platform.connection.getActive())?.id;
        if (!id)
          throw new CommandError(
            'There is no active connection; pass --id or create one first.',
            EXIT.failed,
          );
        if (!options.set) {
          print((await app.platform.connection.get(id))?.settings ?? null, options.json);
          return EXIT.ok;
        }
        print(await app.platform.connection.update(id, { settings: options.set }), options.json);
        return EXIT.ok;
      }),
    );
}
