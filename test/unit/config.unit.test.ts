import { describe, expect, it } from 'vitest';
import { ConfigError, envSchema, loadConfig } from '../../src/config.ts';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('config', () => {
  it('an empty environment is valid: embedded defaults and the polling cadence of docs/platform.md G10', () => {
    const config = loadConfig({});
    expect(config.ERP).toBe('ledger');
    expect(config.RATE_LIMIT_MAX).toBe(200);
    expect(config.RATE_LIMIT_WINDOW_MS).toBe(10_000);
    expect(config.SCHEDULE_OBJECT_SYNC_WEEKDAYS).toBe('0 */2 * * 1-5');
    expect(config.SCHEDULE_OBJECT_SYNC_WEEKENDS).toBe('0 */12 * * 0,6');
    expect(config.DATABASE_URL).toBeUndefined();
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('names every bad variable in one message', () => {
    const problems = problemsOf({ REDIS_URL: 'notaurl', RATE_LIMIT_MAX: '-3', ERP: 'sap', SERVER_PORT: 'x' });
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual([
      'ERP',
      'RATE_LIMIT_MAX',
      'REDIS_URL',
      'SERVER_PORT',
    ]);
  });

  it('never quotes a value, since values may be secrets', () => {
    const error = (() => {
      try {
        loadConfig({ DATABASE_URL: 'mysql://user:hunter2-secret@db', WEBHOOK_SECRET: 'short-secret' });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect(error?.message).toContain('DATABASE_URL');
    expect(error?.message).toContain('WEBHOOK_SECRET');
    expect(error?.message).not.toContain('hunter2');
    expect(error?.message).not.toContain('short-secret');
  });

  it('requires client credentials with a live platform URL, and all Tryton settings with ERP=tryton', () => {
    expect(problemsOf({ PLATFORM_BASE_URL: 'https://api.example.com/developer/v1' })).toEqual([
      'PLATFORM_CLIENT_ID and PLATFORM_CLIENT_SECRET: required when PLATFORM_BASE_URL is set',
    ]);
    expect(problemsOf({ ERP: 'tryton', TRYTON_URL: 'http://127.0.0.1:8000' })).toHaveLength(3);
  });

  it('ERP=hledger needs HLEDGER_URL', () => {
    expect(problemsOf({ ERP: 'hledger' })).toEqual(['HLEDGER_URL: required when ERP=hledger']);
    expect(problemsOf({ ERP: 'hledger', HLEDGER_URL: 'http://127.0.0.1:5000' })).toEqual([]);
  });

  it('ERP=http needs ERP_HTTP_URL; a token or HMAC secret shorter than 16 characters is refused unquoted', () => {
    expect(problemsOf({ ERP: 'http' })).toEqual(['ERP_HTTP_URL: required when ERP=http']);
    expect(problemsOf({ ERP: 'http', ERP_HTTP_URL: 'https://erp.example.com/api' })).toEqual([]);
    const problems = problemsOf({
      ERP: 'http',
      ERP_HTTP_URL: 'https://erp.example.com/api',
      ERP_HTTP_TOKEN: 'short-tok',
      ERP_HTTP_HMAC_SECRET: 'short-sec',
    });
    expect(problems.map((p) => p.split(':')[0])).toEqual(['ERP_HTTP_TOKEN', 'ERP_HTTP_HMAC_SECRET']);
    expect(problems.join(' ')).not.toMatch(/short-/);
  });

  it('requires an operator token when the server listens beyond loopback', () => {
    expect(problemsOf({ SERVER_HOST: '0.0.0.0' })[0]).toMatch(/^OPERATOR_TOKEN: required/);
    expect(problemsOf({ SERVER_HOST: '0.0.0.0', OPERATOR_TOKEN: 'a-long-operator-token' })).toEqual([]);
  });

  it('rejects a schedule that is not a cron expression', () => {
    expect(problemsOf({ SCHEDULE_COA_MIRROR: 'every day' })[0]).toMatch(/^SCHEDULE_COA_MIRROR: .*cron/);
  });

  it('docs/platform.md F42: ERP_PUBLIC_URL is unset by default and must name a host with a dot', () => {
    expect(loadConfig({}).ERP_PUBLIC_URL).toBeUndefined();
    expect(loadConfig({ ERP_PUBLIC_URL: 'https://books.example.com/ledger' }).ERP_PUBLIC_URL).toBe(
      'https://books.example.com/ledger',
    );
    for (const value of ['http://localhost:8080/ledger', 'ftp://books.example.com', 'books.example.com']) {
      expect(
        problemsOf({ ERP_PUBLIC_URL: value }).map((p) => p.split(':')[0]),
        value,
      ).toEqual(['ERP_PUBLIC_URL']);
    }
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ REDIS_URL: '', DATABASE_URL: '' }).REDIS_URL).toBeUndefined();
  });

  it('describes every variable (the README table is generated from these)', () => {
    for (const [key, schema] of Object.entries(envSchema.shape)) {
      expect(schema.description, key).toBeTruthy();
    }
  });
});
