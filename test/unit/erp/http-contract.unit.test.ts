import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { refusalOf, signBody } from '../../../src/erp/http/auth.ts';
import { openApiText } from '../../../src/erp/http/openapi.ts';

describe('HTTP ERP contract', () => {
  it('docs/erp-http-contract.json is generated from the zod schemas and current (regenerate with npm run docs)', () => {
    expect(readFileSync('docs/erp-http-contract.json', 'utf8')).toBe(openApiText());
  });

  it('the document names every endpoint of the contract', () => {
    const doc = JSON.parse(openApiText()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        '/chart/custom-fields',
        '/chart/custom-fields/{id}/options',
        '/chart/gl-accounts',
        '/chart/tax-codes',
        '/chart/tax-rates',
        '/chart/vendors',
        '/entries',
        '/health',
        '/vendors',
      ].sort(),
    );
  });
});

describe('HTTP ERP authentication', () => {
  const secret = 'unit-hmac-secret-0123456789';
  const body = '{"items":[]}';
  const now = 1_750_000_000_000;

  it('accepts a signature of this body within five minutes, refuses one of another body or older', () => {
    const credentials = { hmacSecret: secret };
    expect(
      refusalOf(credentials, { signature: signBody(secret, body, now) }, body, now + 299_000),
    ).toBeNull();
    expect(refusalOf(credentials, { signature: signBody(secret, body, now) }, '{"items":[1]}', now)).toBe(
      'wrong signature',
    );
    expect(refusalOf(credentials, { signature: signBody(secret, body, now) }, body, now + 301_000)).toBe(
      'signature time outside the tolerance',
    );
    expect(refusalOf(credentials, {}, body, now)).toMatch(/missing/);
  });

  it('with both configured, each must pass', () => {
    const credentials = { token: 'unit-token-0123456789', hmacSecret: secret };
    const signature = signBody(secret, body, now);
    expect(
      refusalOf(credentials, { authorization: 'Bearer unit-token-0123456789', signature }, body, now),
    ).toBeNull();
    expect(refusalOf(credentials, { authorization: 'Bearer other', signature }, body, now)).toMatch(/bearer/);
    expect(refusalOf(credentials, { authorization: 'Bearer unit-token-0123456789' }, body, now)).toMatch(
      /Signature/,
    );
  });
});
