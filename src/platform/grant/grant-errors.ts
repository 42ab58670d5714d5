import { EXIT, ExpectedFailure } from '../../exit-codes.ts';

/** The command that stores a new consent, quoted wherever the business must reconnect. */
export const CONNECT_COMMAND = 'npx ledgersync connect';

/**
 * No usable consent: none stored yet, or the platform refused the stored one (revoked by the
 * business, expired, or reuse detected, docs/platform.md F46). Nothing retries its way out of
 * this: the business must consent again (README "Exit codes": 78).
 */
export class GrantUnusableError extends ExpectedFailure {
  override readonly exitCode = EXIT.config;
  constructor(
    readonly reason: 'missing' | 'revoked',
    detail?: string,
  ) {
    super(
      reason === 'missing'
        ? `no platform consent is stored (PLATFORM_GRANT=authorization_code): the business must connect first: run \`${CONNECT_COMMAND}\`.`
        : `the platform revoked this worker's access${detail ? ` (${detail})` : ''}: the business must reconnect: run \`${CONNECT_COMMAND}\`.`,
    );
    this.name = 'GrantUnusableError';
  }
}
