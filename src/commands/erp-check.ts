import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import type { Config } from '../config.ts';
import { createErp } from '../erp/index.ts';
import {
  checkAdapter,
  ERP_RULES,
  type FixtureFileContents,
  parseFixtureFile,
  type RuleOutcome,
} from '../erp/kit/index.ts';
import { EXIT } from '../exit-codes.ts';
import { hostOf } from '../infra/index.ts';
import { createLogger, silentLogger } from '../log.ts';
import { attempt } from '../platform/index.ts';
import { scrubString } from '../secrets.ts';
import { reportFailure } from './report-failure.ts';
import { CommandError, loadConfigOrExit } from './runtime.ts';

interface CheckOptions {
  url: string;
  fixture: string;
  token?: string;
  hmacSecret?: string;
  json?: boolean;
}

/** How long the service has to answer GET /health before the check gives up on it (exit 69). */
const HEALTH_TIMEOUT_MS = 3_000;
/** A port nothing listens on: the kit's "unreachable ERP" rule writes there. */
const DEAD_ADDRESS = 'http://127.0.0.1:1';
const FAST_RETRY = { maxAttempts: 2, baseMs: 10, capMs: 20 };

function serviceUrl(value: string): string {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new InvalidArgumentError('must be a URL such as http://127.0.0.1:4020');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new InvalidArgumentError('must be an http(s) URL');
  return parsed.toString().replace(/\/+$/, '');
}

async function readFixture(path: string): Promise<FixtureFileContents> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'not JSON';
    throw new CommandError(`fixture ${path}: ${reason}`, EXIT.config);
  }
  const parsed = parseFixtureFile(json);
  if (!parsed.ok) throw new CommandError(`fixture ${path}: ${parsed.problems}`, EXIT.config);
  return parsed.value;
}

/** One GET /health, bounded: a service that does not answer at all stops the check (exit 69). */
async function ensureServiceAnswers(url: string): Promise<void> {
  const outcome = await attempt({
    method: 'GET',
    url: new URL(`${url}/health`),
    label: 'GET /health',
    headers: { accept: 'application/json' },
    timeoutMs: HEALTH_TIMEOUT_MS,
    signal: new AbortController().signal,
  });
  if (outcome.kind === 'network') {
    // "network error ECONNREFUSED"; without a code, the innermost cause says more ("bad port").
    const why =
      outcome.reason === 'network error'
        ? `${outcome.reason}: ${outcome.cause.split(' <- ').at(-1)}`
        : outcome.reason;
    throw new CommandError(
      `the ERP service at ${hostOf(url)} does not answer (GET /health: ${why}); start it or check --url.`,
      EXIT.unavailable,
    );
  }
}

/** `held    chart.gl-accounts   streams GL accounts …` / `BROKEN  <id>  <reason>`. */
function ruleLine(outcome: RuleOutcome, idWidth: number): string {
  const id = outcome.rule.id.padEnd(idWidth);
  return outcome.held ? `held    ${id}  ${outcome.rule.title}` : `BROKEN  ${id}  ${outcome.reason ?? ''}`;
}

async function checkService(options: CheckOptions, config: Config): Promise<number> {
  const token = options.token ?? config.ERP_HTTP_TOKEN;
  const hmacSecret = options.hmacSecret ?? config.ERP_HTTP_HMAC_SECRET;
  // A reason may quote what the service answered; neither secret is ever printed.
  const hide = (text: string) =>
    [token, hmacSecret].reduce<string>(
      (out, secret) => (secret ? out.split(secret).join('[redacted]') : out),
      scrubString(text),
    );
  const { fixture, deepLinkBase } = await readFixture(options.fixture);
  await ensureServiceAnswers(options.url);

  // Silent: a retry's warning would repeat on stderr what the rule's line already says.
  const log = silentLogger;
  const erp = createErp(
    { kind: 'http', url: options.url, token, hmacSecret, timeoutMs: config.ERP_HTTP_TIMEOUT_MS },
    { log },
  );
  const unreachableErp = createErp(
    { kind: 'http', url: DEAD_ADDRESS, timeoutMs: 2_000, retry: FAST_RETRY },
    { log },
  );
  const idWidth = Math.max(...ERP_RULES.map((r) => r.id.length));
  try {
    const outcomes = await checkAdapter(
      { erp, unreachableErp, fixture, ...(deepLinkBase ? { deepLinkBase } : {}) },
      {
        onRule: (outcome) => {
          if (!options.json) process.stdout.write(`${hide(ruleLine(outcome, idWidth))}\n`);
        },
      },
    );
    const broken = outcomes.filter((o) => !o.held);
    const host = hostOf(options.url);
    if (options.json)
      process.stdout.write(
        `${JSON.stringify({
          service: host,
          held: outcomes.length - broken.length,
          broken: broken.length,
          rules: outcomes.map(({ rule, held, reason }) => ({
            ...rule,
            held,
            ...(reason === undefined ? {} : { reason: hide(reason) }),
          })),
        })}\n`,
      );
    else
      process.stdout.write(
        broken.length === 0
          ? `All ${outcomes.length} rules held: ${host} keeps the ERP contract.\n`
          : `${broken.length} of ${outcomes.length} rules broken at ${host}: ${broken.map((o) => o.rule.id).join(', ')}.\n`,
      );
    return broken.length === 0 ? EXIT.ok : EXIT.partial;
  } finally {
    await erp.close();
    await unreachableErp.close();
  }
}

/**
 * `ledgersync erp check`: the conformance kit (src/erp/kit) against any service of the HTTP ERP
 * contract (docs/erp-http.md). It needs neither PostgreSQL nor Redis: only the service, and a
 * fixture file naming ids of its test books (`erp kit-books` writes one for the built-in ERP).
 */
export function registerErpCheckCommand(erp: Command): void {
  erp
    .command('check')
    .description('check a service of the HTTP ERP contract with the conformance kit (writes into its books)')
    .requiredOption('--url <service>', 'the service, e.g. http://127.0.0.1:4020', serviceUrl)
    .requiredOption('--fixture <file.json>', 'ids of its test books (a ContractFixture as JSON)')
    .option('--token <token>', 'bearer token (default: ERP_HTTP_TOKEN)')
    .option('--hmac-secret <secret>', 'HMAC secret (default: ERP_HTTP_HMAC_SECRET)')
    .option('--json', 'print every rule and the counts as one JSON document')
    .action(async (options: CheckOptions) => {
      const config = loadConfigOrExit();
      let code: number;
      try {
        code = await checkService(options, config);
      } catch (error) {
        code = reportFailure(error, createLogger({ level: config.LOG_LEVEL }), undefined, undefined);
      }
      process.exit(code);
    });
}
