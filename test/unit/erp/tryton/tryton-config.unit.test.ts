import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../../src/config.ts';
import {
  DEFAULT_JOURNAL_CODE,
  DEFAULT_ROLE_CODES,
  DEFAULT_TRYTON_CONCURRENCY,
  trytonOptionsFrom,
} from '../../../../src/erp/tryton/options.ts';

const TRYTON = {
  ERP: 'tryton',
  TRYTON_URL: 'http://tryton:8000/',
  TRYTON_DATABASE: 'acme',
  TRYTON_USER: 'ledgersync',
  TRYTON_PASSWORD: 'secret-password',
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('Tryton settings', () => {
  it('one company with no settings: no mapping, journal SVC and the documented account codes', () => {
    const options = trytonOptionsFrom(loadConfig(TRYTON));
    expect(options.companyByEntity).toBeUndefined();
    expect(options.journalCode).toBe(DEFAULT_JOURNAL_CODE);
    expect(options.defaults).toEqual(DEFAULT_ROLE_CODES);
    expect(options).toMatchObject({ url: TRYTON.TRYTON_URL, database: 'acme', user: 'ledgersync' });
    // docs/platform.md F42: no deep links unless ERP_PUBLIC_URL names the public web client.
    expect(options.deepLinkBase).toBeUndefined();
  });

  it('docs/platform.md F42: ERP_PUBLIC_URL is the deep-link base, never the JSON-RPC URL', () => {
    const options = trytonOptionsFrom(
      loadConfig({ ...TRYTON, ERP_PUBLIC_URL: 'https://tryton.example.com' }),
    );
    expect(options.deepLinkBase).toBe('https://tryton.example.com');
  });

  it('TRYTON_CONCURRENCY sets the calls in flight; unset, one (a single trytond computes on one core)', () => {
    expect(trytonOptionsFrom(loadConfig(TRYTON)).concurrency).toBe(DEFAULT_TRYTON_CONCURRENCY);
    expect(trytonOptionsFrom(loadConfig({ ...TRYTON, TRYTON_CONCURRENCY: '3' })).concurrency).toBe(3);
    for (const value of ['0', '-1', '1.5', 'many']) {
      expect(problemsOf({ ...TRYTON, TRYTON_CONCURRENCY: value }).join(' ')).toContain('TRYTON_CONCURRENCY');
    }
  });

  it('TRYTON_COMPANY_BY_ENTITY maps entities to a company id (digits) or name, spaces trimmed', () => {
    const config = loadConfig({
      ...TRYTON,
      TRYTON_COMPANY_BY_ENTITY: 'ent_us=1, ent_eu = Acme Europe GmbH ,ent_jp=12',
    });
    expect(config.TRYTON_COMPANY_BY_ENTITY).toEqual({
      ent_us: { id: 1 },
      ent_eu: { name: 'Acme Europe GmbH' },
      ent_jp: { id: 12 },
    });
    expect(trytonOptionsFrom(config).companyByEntity).toEqual(config.TRYTON_COMPANY_BY_ENTITY);
  });

  it('a malformed or repeated pair stops the program naming the variable and the pair, not its text', () => {
    for (const value of ['usa', 'usa=', '=1', 'usa=1,,emea=2', 'usa=1,usa=2']) {
      const problems = problemsOf({ ...TRYTON, TRYTON_COMPANY_BY_ENTITY: value });
      expect(problems, value).toHaveLength(1);
      expect(problems[0], value).toMatch(/^TRYTON_COMPANY_BY_ENTITY: pair \d/);
      expect(problems[0], value).not.toMatch(/usa|emea/);
    }
  });

  it('the journal and every posting-default account code can be set; accounts payable only when set', () => {
    const options = trytonOptionsFrom(
      loadConfig({
        ...TRYTON,
        TRYTON_JOURNAL_CODE: 'PLAT',
        TRYTON_CARD_LIABILITY_ACCOUNT_CODE: '2190',
        TRYTON_EMPLOYEE_PAYABLE_ACCOUNT_CODE: '2195',
        TRYTON_BANK_ACCOUNT_CODE: '1020',
        TRYTON_CASHBACK_INCOME_ACCOUNT_CODE: '4910',
        TRYTON_ACCOUNTS_PAYABLE_ACCOUNT_CODE: '2010',
      }),
    );
    expect(options.journalCode).toBe('PLAT');
    expect(options.defaults).toEqual({
      card_liability: '2190',
      employee_payable: '2195',
      bank: '1020',
      cashback_income: '4910',
      accounts_payable: '2010',
    });
  });
});
