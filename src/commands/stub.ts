import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { runStubCommand } from '../stub/index.ts';

/** --port: a TCP port number (0 = any free port). */
export function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new InvalidArgumentError('must be a port number (0-65535)');
  return n;
}

export function registerStubCommand(program: Command, defaultPort: () => number): void {
  program
    .command('stub')
    .description('run the built-in svc platform stub in the foreground (docs/stub.md)')
    .option('--port <n>', 'port to listen on (0 = any free port)', port)
    .option('--host <address>', 'address to bind', '127.0.0.1')
    .option(
      '--published-answers',
      'answer sync posts 201 {sync_id} only, as the published platform does (docs/platform.md F33)',
    )
    .action(async (options: { port?: number; host: string; publishedAnswers?: boolean }) => {
      await runStubCommand({
        port: options.port ?? defaultPort(),
        host: options.host,
        publishedAnswers: options.publishedAnswers === true,
      });
      process.exit(0);
    });
}
