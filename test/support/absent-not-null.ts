/**
 * docs/platform.md F36: per object list, the fields both published copies make optional and never
 * null (the live service leaves them out). Paths are relative to one item, `[]` for every array
 * element. Bill selections keep `external_code` (null without a code) and have no `source`.
 */
const SELECTION_LISTS = ['accounting_field_selections', 'line_items[].accounting_field_selections'];
const onSelections = (keys: string[]) =>
  SELECTION_LISTS.flatMap((list) => keys.map((key) => `${list}[].${key}`));

export const ABSENT_NOT_NULL: Record<string, string[]> = {
  transactions: [
    ...onSelections(['source', 'external_code', 'provider_name']),
    'card_holder.employee_id',
    'card_holder.location_id',
    'card_holder.location_name',
    'merchant_data',
    'spend_program_id',
    'statement_id',
    'line_items[].memo',
  ],
  bills: [
    ...onSelections(['provider_name']),
    'memo',
    'line_items[].memo',
    'posting_date',
    'vendor_memo',
    'vendor.remote_id',
    'vendor.remote_code',
    'vendor.remote_name',
  ],
  // F24 keeps every other selection key on reimbursements, null where there is no value.
  reimbursements: onSelections(['provider_name']),
  transfers: ['accounting_field_selections[].provider_name'],
  cashbacks: ['accounting_field_selections[].provider_name'],
};

/** The F36 paths of a list as json-shape paths of a page answer (`$.data[].…`). */
export function absentInPage(list: string): Set<string> {
  return new Set((ABSENT_NOT_NULL[list] ?? []).map((path) => `$.data[].${path}`));
}
