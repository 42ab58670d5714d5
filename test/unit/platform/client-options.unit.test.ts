import { describe, expect, it } from 'vitest';
import { createPlatformClient } from '../../../src/platform/client.ts';

const base = {
  clientId: 'id',
  clientSecret: 'secret',
  scopes: [],
  redis: 'redis://127.0.0.1:1',
};

describe('createPlatformClient options', () => {
  it('refuses a base URL that does not end in /developer/v1 (before opening anything)', () => {
    expect(() => createPlatformClient({ ...base, baseUrl: 'https://api.example.com/v1' })).toThrow(
      /developer\/v1/,
    );
    expect(() =>
      createPlatformClient({ ...base, baseUrl: 'https://u:p@api.example.com/developer/v1' }),
    ).toThrow(/credentials/);
  });

  it('refuses a limiter whose margin leaves no permit', () => {
    expect(() =>
      createPlatformClient({
        ...base,
        redis: { status: 'wait' } as never,
        baseUrl: 'https://api.example.com/developer/v1',
        limiter: { max: 4, margin: 4 },
      }),
    ).toThrow(/max - margin/);
  });
});
