import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { silentLogger } from '../log.ts';
import { reportFailure } from './report-failure.ts';
import { loadStub, type StubPackage } from './stub-package.ts';

/** --port: a TCP port number (0 = any free port). */
export function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new InvalidArgumentError('must be a port number (0-65535)');
  return n;
}

/**
 * The stub package, or the one line and exit code of its absence (src/commands/stub-package.ts),
 * before anything starts: `stub`, `demo` and `try` load it first.
 */
export async function loadStubOrExit(): Promise<StubPackage> {
  try {
    return await loadStub();
  } catch (error) {
    process.exit(reportFailure(error, silentLogger, undefined, undefined));
  }
}

export function registerStubCommand(program: Command, defaultPort: () => number): void {
  program
    .command('stub')
    .description('run the built-in svc platform stub in the foreground (packages/stub/README.md)')
    .option('--port <n>', 'port to listen on (0 = any free port)', port)
    .option('--host <address>', 'address to bind', '127.0.0.1')
    .option(
      '--published-answers',
      'answer sync posts 201 {sync_id} only, as the published platform does (docs/platform.md F33)',
    )
    .action(async (options: { port?: number; host: string; publishedAnswers?: boolean }) => {
      const { runStubCommand } = await loadStubOrExit();
      await runStubCommand({
        port: options.port ?? defaultPort(),
        host: options.host,
        publishedAnswers: options.publishedAnswers === true,
      });
      process.exit(0);
    });
}
