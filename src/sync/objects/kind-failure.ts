import { ErpPagingError } from '../../erp/index.ts';
import { ExpectedFailure } from '../../exit-codes.ts';
import { NetworkError, PlatformError } from '../../platform/index.ts';
import { scrubString } from '../../secrets.ts';

/**
 * What stops one kind of a `sync` run and not the others (docs/platform.md F43): the platform
 * answered that kind's calls with something the run cannot go on from — a page link that leads
 * nowhere or to another list, an error status after the retries, an answer of the wrong shape, a
 * missing scope for that kind. So does an HTTP ERP chart stream that does not end (a cursor that
 * does not move, src/page-guard.ts), for the chart mirror (`coa`) that reads it. The other kinds
 * still run; the command names the kind and the reason and exits 4 (README "Exit codes").
 *
 * A platform that does not answer at all, a database or Redis that is down, and configuration
 * errors are not kind failures (null): every kind would meet them, so they stop the whole run
 * (exit 69 or 78, src/commands/report-failure.ts).
 */
export function kindFailureReason(error: unknown): string | null {
  if (error instanceof ErpPagingError)
    return scrubString(`${error.title}: ${error.detail} (${error.referenceId})`);
  if (error instanceof NetworkError || error instanceof ExpectedFailure) return null;
  if (!(error instanceof PlatformError)) return null;
  return scrubString(error.message);
}
