import cron from 'node-cron';
import { z } from 'zod';
import { DEFAULT_TRYTON_CONCURRENCY } from './erp/index.ts';
import { EXIT, ExpectedFailure } from './exit-codes.ts';
import { hasPublicHost } from './public-url.ts';
import { issueLines } from './zod-issues.ts';

/**
 * The whole environment of ledgersync, as one zod schema. This is the only module that reads
 * process.env; everything else receives the frozen Config (or a typed slice of it).
 * Each entry's description feeds the README's configuration table (a test keeps them in step).
 */

const cronExpression = z
  .string()
  .refine((v) => cron.validate(v), { message: 'is not a valid cron expression (5 or 6 fields)' });

const port = z.coerce.number().int().min(0).max(65535);

const accountCode = z.string().trim().min(1).max(64);

/** A Tryton company named in TRYTON_COMPANY_BY_ENTITY: its record id, or its (party's) name. */
type TrytonCompanyRef = { id: number } | { name: string };

/**
 * TRYTON_COMPANY_BY_ENTITY: `entity=company` pairs separated by commas, e.g.
 * `ent_us=1,ent_eu=Acme Europe GmbH`; a company of digits only is a Tryton company id, anything
 * else the company's name. Parsed into platform entity id → company.
 */
const trytonCompanyByEntity = z.string().transform((text, ctx) => {
  const map: Record<string, TrytonCompanyRef> = {};
  // Problems name the pair by position, never its text: configuration messages quote no values.
  for (const [index, raw] of text.split(',').entries()) {
    const pair = raw.trim();
    const eq = pair.indexOf('=');
    const entity = eq < 0 ? '' : pair.slice(0, eq).trim();
    const company = eq < 0 ? '' : pair.slice(eq + 1).trim();
    if (!entity || !company) {
      ctx.addIssue({
        code: 'custom',
        message: `pair ${index + 1} is not entity=company (e.g. ent_us=1,ent_eu=Acme Europe GmbH)`,
      });
      return z.NEVER;
    }
    if (entity in map) {
      ctx.addIssue({ code: 'custom', message: `pair ${index + 1} lists an entity already listed` });
      return z.NEVER;
    }
    map[entity] = /^\d+$/.test(company) ? { id: Number(company) } : { name: company };
  }
  return map;
});

const url = (protocols: string[]) =>
  z.string().refine(
    (v) => {
      try {
        return protocols.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    },
    { message: `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}` },
  );

/** docs/platform.md F44: an HTTPS redirect URI, or a loopback one for development. */
function isRedirectUri(value: string): boolean {
  try {
    const u = new URL(value);
    if (u.hash) return false;
    return (
      u.protocol === 'https:' || (u.protocol === 'http:' && ['localhost', '127.0.0.1'].includes(u.hostname))
    );
  } catch {
    return false;
  }
}

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development').describe('Runtime mode.'),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info')
    .describe('Log level (pino). JSON lines unless stdout is a terminal.'),

  PLATFORM_BASE_URL: url(['http:', 'https:'])
    .optional()
    .describe(
      'The platform API base, ending in /developer/v1. Unset: only `demo` runs (on a stub of its own); other commands say it is required.',
    ),
  PLATFORM_CLIENT_ID: z.string().min(1).optional().describe('OAuth client id (client-credentials grant).'),
  PLATFORM_CLIENT_SECRET: z.string().min(1).optional().describe('OAuth client secret. Never logged.'),
  PLATFORM_SCOPES: z
    .string()
    .default(
      'accounting:read accounting:write transactions:read reimbursements:read transfers:read cashbacks:read bills:read entities:read vendors:read vendors:write',
    )
    .describe('Space-separated scopes requested with the token.'),
  PLATFORM_GRANT: z
    .enum(['client_credentials', 'authorization_code'])
    .default('client_credentials')
    .describe(
      "How the worker gets its access token (docs/platform.md G5): `client_credentials` for the business's own app, `authorization_code` for a third-party integration the business consents to once with `ledgersync connect`.",
    ),
  PLATFORM_REDIRECT_URI: z
    .string()
    .refine(isRedirectUri, {
      message:
        'must be an https:// URL, or http://localhost or http://127.0.0.1 with a port (docs/platform.md F44)',
    })
    .optional()
    .describe(
      "Where the platform sends the business back after consent (PLATFORM_GRANT=authorization_code), registered in the app's configuration: http://localhost:<port>/… for `connect` on this machine, or `https://<worker>/oauth/callback`.",
    ),
  PLATFORM_AUTHORIZE_URL: url(['http:', 'https:'])
    .optional()
    .describe(
      "The platform's consent page (docs/platform.md F44). Unset: `/oauth/authorize` on PLATFORM_BASE_URL's host.",
    ),
  TOKEN_ENCRYPTION_KEY: z
    .string()
    .optional()
    .describe(
      'Key the stored refresh and access tokens are encrypted with (AES-256-GCM): 32 bytes in base64 (`openssl rand -base64 32`); required with PLATFORM_GRANT=authorization_code. Never logged.',
    ),
  TOKEN_ENCRYPTION_OLD_KEYS: z
    .string()
    .optional()
    .describe(
      'Other keys stored tokens may be under, comma-separated: they only decrypt. Each worker start and `status` re-encrypt what is under them with TOKEN_ENCRYPTION_KEY; remove one once `status` says it may go (README, rotating TOKEN_ENCRYPTION_KEY). Never logged.',
    ),
  PLATFORM_CONNECTION_ID: z
    .string()
    .min(1)
    .optional()
    .describe('The accounting connection to sync. Unset: the active connection.'),

  PLATFORM_REQUEST_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .max(600_000)
    .default(65_000)
    .describe(
      'Give up on one platform request after this long and retry it (the platform ends its own at 60 s, docs/platform.md G9).',
    ),
  RATE_LIMIT_MAX: z.coerce
    .number()
    .int()
    .positive()
    .default(200)
    .describe('Platform requests allowed per window per egress IP (docs/platform.md F3).'),
  RATE_LIMIT_WINDOW_MS: z.coerce.number().int().positive().default(10_000).describe('Rolling window (ms).'),
  RATE_LIMIT_MARGIN: z.coerce
    .number()
    .int()
    .min(0)
    .default(0)
    .describe(
      'Permits held back per window; 0 uses the whole window, since each request is counted until a window after its answer, or after it was given up.',
    ),
  EGRESS_ID: z
    .string()
    .min(1)
    .default('default')
    .describe('Name of the egress IP; processes sharing it share one rate budget in Redis.'),

  DATABASE_URL: url(['postgres:', 'postgresql:'])
    .optional()
    .describe('PostgreSQL URL. Unset: an embedded PostgreSQL is started, data in .ledgersync/pg.'),
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/)
    .default('ledgersync')
    .describe("The worker's own schema."),
  EMBEDDED_DATA_DIR: z
    .string()
    .default('.ledgersync')
    .describe('Folder for the embedded PostgreSQL and Redis data (pg/, redis/).'),
  REDIS_URL: url(['redis:', 'rediss:'])
    .optional()
    .describe(
      'Redis URL (AOF on, maxmemory-policy noeviction). Unset: redis-server from PATH is started, data in .ledgersync/redis, shared by every ledgersync process using the same EMBEDDED_DATA_DIR.',
    ),
  QUEUE_PREFIX: z.string().min(1).default('ledgersync').describe('BullMQ key prefix.'),

  ERP: z
    .enum(['ledger', 'tryton', 'http', 'hledger'])
    .default('ledger')
    .describe(
      'Which ERP adapter to use: the built-in ERP, Tryton, a service of the HTTP contract (docs/erp-http.md), or an hledger journal served by hledger-web (docs/extending.md).',
    ),
  ERP_PUBLIC_URL: z
    .string()
    .refine(hasPublicHost, {
      message:
        'must be an http:// or https:// URL naming a public host (a name with a dot): the platform refuses links such as http://localhost',
    })
    .optional()
    .describe(
      "Public base URL of the ERP's web client, for the deep links bills are reported with (the built-in ERP: `<base>/bills/<id>`; Tryton: the web client root; hledger: `<base>/journal?q=code:<code>`). Unset: bills are reported without a deep link (docs/platform.md F42).",
    ),
  LEDGER_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/)
    .default('ledger')
    .describe('Schema of the built-in ERP.'),
  HLEDGER_URL: url(['http:', 'https:'])
    .optional()
    .describe('Root of `hledger-web --serve-api` with the add capability (ERP=hledger).'),
  TRYTON_URL: url(['http:', 'https:']).optional().describe('Tryton JSON-RPC URL (ERP=tryton).'),
  TRYTON_DATABASE: z.string().optional().describe('Tryton database name (ERP=tryton).'),
  TRYTON_USER: z.string().optional().describe('Tryton user (ERP=tryton).'),
  TRYTON_PASSWORD: z.string().optional().describe('Tryton password (ERP=tryton). Never logged.'),
  TRYTON_COMPANY_BY_ENTITY: trytonCompanyByEntity
    .optional()
    .describe(
      "Several companies in one Tryton database: `entity=company` pairs, comma-separated; the company is a Tryton company id (digits) or its name. An entity not listed fails with a message naming it. Unset: every entity is booked in the Tryton user's current company (docs/tryton.md).",
    ),
  TRYTON_JOURNAL_CODE: accountCode
    .default('SVC')
    .describe('Code of the Tryton journal moves are posted in (supplier invoices use the expense journal).'),
  TRYTON_CARD_LIABILITY_ACCOUNT_CODE: accountCode
    .default('2100')
    .describe('Code of the Tryton account card transactions are credited to, unless the object names one.'),
  TRYTON_EMPLOYEE_PAYABLE_ACCOUNT_CODE: accountCode
    .default('2150')
    .describe('Code of the Tryton account reimbursements are credited to, unless the object names one.'),
  TRYTON_BANK_ACCOUNT_CODE: accountCode
    .default('1010')
    .describe('Code of the Tryton bank account transfers and bill payments are credited to.'),
  TRYTON_CASHBACK_INCOME_ACCOUNT_CODE: accountCode
    .default('4900')
    .describe('Code of the Tryton account cashbacks are credited to.'),
  TRYTON_CONCURRENCY: z.coerce
    .number()
    .int()
    .min(1)
    .max(32)
    .default(DEFAULT_TRYTON_CONCURRENCY)
    .describe(
      'Tryton calls the worker keeps in flight while posting a page (batches of up to 50 moves or invoices). 1 suits a single trytond process, which computes on one core; raise it to the number of trytond worker processes (docs/tryton.md).',
    ),
  TRYTON_ACCOUNTS_PAYABLE_ACCOUNT_CODE: accountCode
    .optional()
    .describe(
      "Code of the Tryton account bills are credited to. Unset: each company's default payable account (Tryton's account configuration).",
    ),

  ERP_HTTP_URL: url(['http:', 'https:'])
    .optional()
    .describe('Base URL of the ERP service implementing docs/erp-http-contract.json (ERP=http).'),
  ERP_HTTP_TOKEN: z
    .string()
    .min(16)
    .optional()
    .describe(
      'Bearer token sent to the ERP service, and required by `erp serve`; at least 16 characters. Never logged.',
    ),
  ERP_HTTP_HMAC_SECRET: z
    .string()
    .min(16)
    .optional()
    .describe(
      'Shared secret for X-Ledgersync-Signature (HMAC-SHA256 of the body), sent to the ERP service and required by `erp serve`; at least 16 characters. Never logged.',
    ),
  ERP_HTTP_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(600_000)
    .default(30_000)
    .describe('Give up on one ERP service request after this long and retry it (ERP=http).'),

  WEBHOOK_SECRET: z
    .string()
    .min(16)
    .optional()
    .describe(
      'Secret for X-Svc-Webhook-Signature (at least 16 characters); set from the subscription response. Never logged.',
    ),
  WEBHOOK_PUBLIC_URL: url(['http:', 'https:'])
    .optional()
    .describe("Public URL of this worker's webhook route, registered with the platform."),

  SCHEDULE_OBJECT_SYNC_WEEKDAYS: cronExpression
    .default('0 */2 * * 1-5')
    .describe('Object syncs on weekdays (docs/platform.md G10: every 1-4 hours).'),
  SCHEDULE_OBJECT_SYNC_WEEKENDS: cronExpression
    .default('0 */12 * * 0,6')
    .describe('Object syncs at weekends (docs/platform.md G10: every 12 hours).'),
  SCHEDULE_COA_MIRROR: cronExpression.default('30 1 * * *').describe('Chart-of-accounts mirror (daily).'),

  SERVER_HOST: z.string().default('127.0.0.1').describe("Address the worker's HTTP server binds."),
  SERVER_PORT: port
    .default(8080)
    .describe("Port of the worker's HTTP server (webhooks, dashboard, metrics)."),
  OPERATOR_TOKEN: z
    .string()
    .min(16)
    .optional()
    .describe(
      'Bearer token for dashboard, status and metrics, at least 16 characters; required when SERVER_HOST is not loopback.',
    ),
  STUB_PORT: port.default(4010).describe('Port of the built-in platform stub (`ledgersync stub`).'),
});

type Env = z.infer<typeof envSchema>;
export type Config = Readonly<Env>;

export class ConfigError extends ExpectedFailure {
  override readonly exitCode = EXIT.config;
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

function crossFieldProblems(env: Env): string[] {
  const problems: string[] = [];
  if (env.PLATFORM_BASE_URL && !(env.PLATFORM_CLIENT_ID && env.PLATFORM_CLIENT_SECRET)) {
    problems.push('PLATFORM_CLIENT_ID and PLATFORM_CLIENT_SECRET: required when PLATFORM_BASE_URL is set');
  }
  if (env.PLATFORM_GRANT === 'authorization_code' && !env.PLATFORM_REDIRECT_URI) {
    problems.push('PLATFORM_REDIRECT_URI: required when PLATFORM_GRANT=authorization_code');
  }
  if (env.ERP === 'tryton') {
    for (const key of ['TRYTON_URL', 'TRYTON_DATABASE', 'TRYTON_USER', 'TRYTON_PASSWORD'] as const) {
      if (!env[key]) problems.push(`${key}: required when ERP=tryton`);
    }
  }
  if (env.ERP === 'http' && !env.ERP_HTTP_URL) problems.push('ERP_HTTP_URL: required when ERP=http');
  if (env.ERP === 'hledger' && !env.HLEDGER_URL) problems.push('HLEDGER_URL: required when ERP=hledger');
  if (!LOOPBACK.has(env.SERVER_HOST) && !env.OPERATOR_TOKEN) {
    problems.push(`OPERATOR_TOKEN: required when SERVER_HOST (${env.SERVER_HOST}) is not loopback`);
  }
  if (env.RATE_LIMIT_MARGIN >= env.RATE_LIMIT_MAX) {
    problems.push('RATE_LIMIT_MARGIN: must be smaller than RATE_LIMIT_MAX');
  }
  return problems;
}

/**
 * Parses an environment. Every problem is collected, so one run of the program names all of
 * them; the message quotes variable names, never values (a value may be a secret).
 */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const input: Record<string, string> = {};
  for (const key of Object.keys(envSchema.shape)) {
    const value = source[key];
    if (value !== undefined && value !== '') input[key] = value;
  }
  const parsed = envSchema.safeParse(input);
  if (!parsed.success) {
    throw new ConfigError(issueLines(parsed.error.issues, { limit: Number.POSITIVE_INFINITY }));
  }
  const problems = crossFieldProblems(parsed.data);
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(parsed.data);
}
