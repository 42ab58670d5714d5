import { EXIT, ExpectedFailure } from '../exit-codes.ts';
import type { AccountingConnection } from '../platform/index.ts';

/**
 * A connection ledgersync may not sync (docs/platform.md F39, G25): only an API connection takes
 * sync results and chart writes by API; a DIRECT or CSV one refuses every result post
 * (DEVELOPER_7089). A DIRECT connection is the platform's own integration, which exports the
 * objects to the ERP itself: syncing it would post every object into the ERP, leave them all
 * ready on the platform, and let its export post them again. So it is refused before anything is
 * written: a set-up step, exit 78 with what to do (`migrate prepare` moves the customer off it,
 * and never syncs a connection that is not API).
 */
class UnreportableConnectionError extends ExpectedFailure {
  override readonly exitCode = EXIT.config;
  constructor(connection: AccountingConnection, configured: string | undefined) {
    const type = connection.connection_type;
    const which = configured
      ? `PLATFORM_CONNECTION_ID names connection ${connection.id}, a ${type} connection`
      : `The active accounting connection (${connection.id}) is a ${type} connection`;
    const fix = configured
      ? 'Set it to the id of an API connection from `npx ledgersync connection show`, or unset it to sync the active connection.'
      : 'To move the customer onto ledgersync, run `npx ledgersync migrate prepare --provider "<ERP name>"` and have them switch to the new connection in the platform; or set PLATFORM_CONNECTION_ID to an API connection.';
    super(
      `${which}, which takes no sync results by API (DEVELOPER_7089): ledgersync syncs only API connections, and posted nothing. ${fix}`,
    );
    this.name = 'UnreportableConnectionError';
  }
}

/** Throws unless ledgersync may sync and report to this connection: an API one (F39). */
export function refuseUnreportable(connection: AccountingConnection, configured?: string): void {
  if (connection.connection_type !== 'API') throw new UnreportableConnectionError(connection, configured);
}
