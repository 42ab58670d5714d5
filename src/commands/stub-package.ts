import { EXIT, ExpectedFailure } from '../exit-codes.ts';
import type { Logger } from '../log.ts';

/**
 * The built-in platform stub is a workspace package beside the product (packages/stub), not part
 * of it: the production build and image leave it out. The verbs that run it (`stub`, `demo`,
 * `try`) load it here at run time, by a name tsc does not follow, so the compiled program neither
 * contains nor needs it. Where it is absent, they stop with one line and exit 69 (README "Exit
 * codes") instead of a stack. What the product uses of the package is declared here;
 * test/unit/commands/stub-package.unit.test.ts holds the package to it.
 */

export interface RunningStub {
  /** e.g. http://127.0.0.1:4010 */
  url: string;
  /** url + '/developer/v1' */
  apiUrl: string;
  close(): Promise<void>;
}

export interface StubPackage {
  /** The stub's fixed development client (packages/stub/README.md): not a secret of any real service. */
  DEFAULT_CLIENT: { client_id: string; client_secret: string };
  startStub(options: { port?: number; host?: string; log?: Logger }): Promise<RunningStub>;
  runStubCommand(options: { port?: number; host?: string; publishedAnswers?: boolean }): Promise<void>;
}

const STUB_PACKAGE = '@ledgersync/stub';

export class StubMissingError extends ExpectedFailure {
  readonly exitCode = EXIT.unavailable;
  constructor() {
    super(
      'the built-in platform stub is not part of this installation (the production image leaves it out): run this command from a clone of the repository (npx ledgersync ...)',
    );
    this.name = 'StubMissingError';
  }
}

/**
 * Not installed (ERR_MODULE_NOT_FOUND naming the package), or installed but TypeScript that this
 * runtime cannot load (the compiled program run inside a clone, without tsx).
 */
function isMissing(error: unknown, specifier: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code === 'ERR_UNKNOWN_FILE_EXTENSION') return true;
  return code === 'ERR_MODULE_NOT_FOUND' && String(message).includes(`'${specifier}'`);
}

/** `specifier` is the package's name; a test passes another to meet the absent case. */
export async function loadStub(specifier: string = STUB_PACKAGE): Promise<StubPackage> {
  try {
    return (await import(specifier)) as StubPackage;
  } catch (error) {
    if (isMissing(error, specifier)) throw new StubMissingError();
    throw error;
  }
}
