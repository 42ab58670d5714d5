import { type ErpErrorInfo, userActionable } from '../../erp/index.ts';
import { freeText } from './free-text.ts';

/**
 * A platform object that cannot become an ERP posting because of how it is coded on the
 * platform (for example no GL account). It is the bookkeeper's to fix, so it becomes a
 * user-actionable failed_syncs entry; it never stops the other objects. The message may quote
 * platform text (an invoice number, an amount), so control characters are removed from it: the
 * sync ledger stores it, and PostgreSQL cannot store NUL.
 */
export class MappingProblem extends Error {
  constructor(
    readonly code: string,
    readonly title: string,
    readonly fix: string,
  ) {
    super(freeText(title));
    this.name = 'MappingProblem';
  }

  toErrorInfo(): ErpErrorInfo {
    return userActionable(this.code, freeText(this.title), freeText(this.fix));
  }
}
