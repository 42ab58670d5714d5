import type { ErpAdapter } from '../adapter.ts';
import type { Currency } from '../types.ts';

/**
 * What an adapter's harness tells the kit about the ERP it set up: ids that exist there, so the
 * kit can build valid objects and provoke each refusal. See docs/extending.md.
 */
export interface ContractFixture {
  /** Entity the objects belong to; null means the ERP's default entity. */
  entityId: string | null;
  /** The entity's book currency, and one its books are not kept in. */
  currency: Currency;
  foreignCurrency: Currency;
  /** A date in an open period and one in a closed period (YYYY-MM-DD). */
  openDate: string;
  closedDate: string;
  expenseAccountId: string;
  otherExpenseAccountId: string;
  inactiveAccount: { id: string; code: string };
  unknownAccountId: string;
  vendorId: string;
  inactiveVendor: { id: string; name: string };
  unknownVendorId: string;
  /** A tax code with a non-zero rate. */
  taxCodeId: string;
  /** Dimensions every line carries, so required fields are satisfied. */
  dimensions: Record<string, string>;
  /** A custom field required on bill lines (its id must be a key of `dimensions`). */
  requiredField: { id: string; name: string };
}

/** The adapter under check, with its fixture. The kit writes objects into it: use test books. */
export interface ContractSubject {
  erp: ErpAdapter;
  fixture: ContractFixture;
  /** The same ERP, unreachable (e.g. a dead address): writes must fail as transient. */
  unreachableErp?: ErpAdapter;
  /** The public base URL the ERP was given; unset, bills carry no deep link (docs/platform.md F42). */
  deepLinkBase?: string;
}
