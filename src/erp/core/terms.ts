import type { DefaultRole } from './roles.ts';

/**
 * The words an ERP uses for what the refusals name, so one catalogue (refusals.ts) speaks each
 * ERP's language: the bookkeeper reads "party" in Tryton and "vendor" in the ledger, and is told
 * to change things where that ERP keeps them.
 */
export interface ErpTerms {
  /** The ERP mid-sentence: "the ledger", "Tryton". */
  erp: string;
  /**
   * " of company Acme" when one ERP keeps several books and a message must say whose chart it
   * means; "" otherwise.
   */
  scope: string;
  /** The fix when an entity has no books: how to add them in this ERP. */
  addBooks: (entityId: string) => string;
  /** Put before a period's name in "reopen …": "" (a month) or "period ". */
  periodNoun: string;
  /** An account that cannot be posted to for its state: "inactive", "closed or inactive". */
  inactiveAccount: string;
  /** Added to "reactivate account X in <erp>": what else that takes, e.g. " (untick Closed)". */
  reactivateAccountHint: string;
  /** Title and fix when a role has no account: as set in this ERP, or looked up by `code` in vain. */
  noDefault: (role: DefaultRole, code: string | undefined) => { title: string; fix: string };
  /** The record a vendor is: "vendor", "party". */
  vendor: string;
  /** A tax code and one of its rates: "tax code" / "tax rate", "tax" / "tax". */
  taxCode: string;
  taxRate: string;
  /** Added to "the rates of … add up to -100% or less": the ERP's other reason a code is unusable. */
  unusableTaxCode: string;
  /** A custom field and one of its options: "custom field" / "option", "analytic axis" / "analytic account". */
  field: string;
  option: string;
  /** A field or option that cannot be used, and the verb that makes it usable again. */
  closedDimension: string;
  reopenDimension: string;
  /** What an overpayment's extra amount becomes: "a vendor credit in the ledger". */
  vendorCredit: string;
}

export const capitalized = (words: string) => words.charAt(0).toUpperCase() + words.slice(1);

export const withArticle = (words: string) => `${/^[aeiou]/i.test(words) ? 'an' : 'a'} ${words}`;
