import { describe, expect, it } from 'vitest';
import { loadStub, StubMissingError, type StubPackage } from '../../../src/commands/stub-package.ts';
import { EXIT } from '../../../src/exit-codes.ts';

/**
 * `stub`, `demo` and `try` load the stub package at run time (src/commands/stub-package.ts): the
 * package must offer what the product declares it uses, and its absence (the production image)
 * must be one expected failure with its exit code, not a stack.
 */
describe('the stub package as the product loads it', () => {
  it('offers what the stub, demo and try commands use of it', async () => {
    // Type-checked by `tsc -p .` (npm run check): the package's own types satisfy the declaration.
    const declared: StubPackage = await import('@ledgersync/stub');
    const loaded = await loadStub();
    expect(loaded.DEFAULT_CLIENT).toEqual(declared.DEFAULT_CLIENT);
    const stub = await loaded.startStub({ port: 0 });
    try {
      expect(stub.apiUrl).toBe(`${stub.url}/developer/v1`);
      expect((await fetch(`${stub.url}/__stub/health`)).status).toBe(200);
    } finally {
      await stub.close();
    }
  });

  it('an absent package is an expected failure that exits 69 (README "Exit codes"), naming the way out', async () => {
    const error = await loadStub('@ledgersync/no-such-package').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StubMissingError);
    expect((error as StubMissingError).exitCode).toBe(EXIT.unavailable);
    expect((error as Error).message).toMatch(/not part of this installation.*clone of the repository/);
  });

  it('an error inside the package is not mistaken for its absence', async () => {
    // A module that exists but fails on load: the failure is passed on as it is.
    const broken = `data:text/javascript,${encodeURIComponent("throw new Error('broken on load')")}`;
    await expect(loadStub(broken)).rejects.toThrow('broken on load');
  });
});
