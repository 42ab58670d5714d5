import { describe, expect, it } from 'vitest';
import { TokenCache } from '../../../src/platform/token-cache.ts';

function issuer(lifetimeS = 100) {
  let calls = 0;
  const pending: Array<() => void> = [];
  const issue = () =>
    new Promise<{ accessToken: string; expiresInS: number }>((resolve) => {
      calls++;
      const n = calls;
      pending.push(() => resolve({ accessToken: `tok-${n}`, expiresInS: lifetimeS }));
    });
  return {
    issue,
    get calls() {
      return calls;
    },
    releaseAll: () => {
      for (const release of pending.splice(0)) release();
    },
  };
}

describe('TokenCache (docs/platform.md F1)', () => {
  it('F1: many callers waiting for a token cause one token request (single flight)', async () => {
    const source = issuer();
    const cache = new TokenCache(source.issue);
    const waiting = Array.from({ length: 20 }, () => cache.get());
    source.releaseAll();
    expect(new Set(await Promise.all(waiting))).toEqual(new Set(['tok-1']));
    expect(source.calls).toBe(1);
  });

  it('F1: renews shortly before expires_in, not after', async () => {
    let now = 0;
    const source = issuer(100);
    const cache = new TokenCache(source.issue, { now: () => now });
    const first = cache.get();
    source.releaseAll();
    expect(await first).toBe('tok-1');
    now = 89_000; // 10 % of 100 s early = renew at 90 s
    expect(await cache.get()).toBe('tok-1');
    now = 90_000;
    const renewed = cache.get();
    source.releaseAll();
    expect(await renewed).toBe('tok-2');
  });

  it('F1: 20 callers refused with the same expired token renew it once', async () => {
    const source = issuer();
    const cache = new TokenCache(source.issue);
    const first = cache.get();
    source.releaseAll();
    const old = await first;
    const replaced = Array.from({ length: 20 }, () => cache.replace(old));
    source.releaseAll();
    expect(new Set(await Promise.all(replaced))).toEqual(new Set(['tok-2']));
    // A late refusal of the old token uses the new one instead of renewing again.
    expect(await cache.replace(old)).toBe('tok-2');
    expect(source.calls).toBe(2);
  });

  it('a failed token request fails its waiters and the next call tries again', async () => {
    let calls = 0;
    const cache = new TokenCache(async () => {
      calls++;
      if (calls === 1) throw new Error('down');
      return { accessToken: 'ok', expiresInS: 100 };
    });
    await expect(Promise.all([cache.get(), cache.get()])).rejects.toThrow('down');
    expect(await cache.get()).toBe('ok');
    expect(calls).toBe(2);
  });
});
