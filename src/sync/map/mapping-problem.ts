import { type ErpErrorInfo, userActionable } from '../../erp/errors.ts';

/**
 * A platform object that cannot become an ERP posting because of how it is coded on the
 * platform (for example no GL account). It is the bookkeeper's to fix, so it becomes a
 * user-actionable failed_syncs entry; it never stops the other objects.
 */
export class MappingProblem extends Error {
  constructor(
    readonly code: string,
    readonly title: string,
    readonly fix: string,
  ) {
    super(title);
    this.name = 'MappingProblem';
  }

  toErrorInfo(): ErpErrorInfo {
    return userActionable(this.code, this.title, this.fix);
  }
}
