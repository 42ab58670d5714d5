/**
 * The posting roles every ERP fills with an account: the counter accounts of the posting table
 * (src/erp/README.md). An object may name its own account for a role; otherwise the ERP's
 * configured default is used.
 */

export const DEFAULT_ROLES = [
  'card_liability',
  'employee_payable',
  'accounts_payable',
  'bank',
  'cashback_income',
] as const;
export type DefaultRole = (typeof DEFAULT_ROLES)[number];

const ROLE_LABEL: Record<DefaultRole, string> = {
  card_liability: 'card liability',
  employee_payable: 'employee payable',
  accounts_payable: 'accounts payable',
  bank: 'bank',
  cashback_income: 'cashback income',
};

/** How a role is named in a bookkeeper-facing message. */
export function roleLabel(role: DefaultRole): string {
  return ROLE_LABEL[role];
}
