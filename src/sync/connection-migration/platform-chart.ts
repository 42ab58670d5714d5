import { z } from 'zod';
import type { PlatformClient } from '../../platform/index.ts';
import { Listing } from '../../platform/index.ts';

/**
 * A connection's chart of accounts read from the platform, item by item exactly as it answered
 * (every field kept, not only the ones the client knows), for the backup and the verification.
 * Every list names the connection (accounting_connection_id), so an inactive one reads too.
 */
export const PlatformItem = z.looseObject({
  id: z.string(),
  svc_id: z.string(),
  is_active: z.boolean(),
});
export type PlatformItem = z.infer<typeof PlatformItem>;

const PlatformField = PlatformItem.extend({ options: z.array(PlatformItem) });
type PlatformField = z.infer<typeof PlatformField>;

export const PlatformChart = z.object({
  gl_accounts: z.array(PlatformItem),
  /** Custom fields, each with its options (read per field, F10). */
  fields: z.array(PlatformField),
  vendors: z.array(PlatformItem),
  tax_rates: z.array(PlatformItem),
  tax_code_options: z.array(PlatformItem),
  /** Items the platform sent that lack an id, svc_id or is_active: kept as the error, not lost. */
  unreadable: z.array(z.object({ list: z.string(), id: z.string().nullable(), error: z.string() })),
});
export type PlatformChart = z.infer<typeof PlatformChart>;

type Send = PlatformClient['request'];

async function readList(
  send: Send,
  path: string,
  query: Record<string, string>,
  list: string,
  unreadable: PlatformChart['unreadable'],
): Promise<PlatformItem[]> {
  const listing = new Listing({ send, path, query, item: PlatformItem, what: list });
  const { values, failures } = await listing.collect();
  for (const f of failures) unreadable.push({ list, id: f.id, error: f.error });
  return values;
}

export async function readPlatformChart(
  platform: PlatformClient,
  connectionId: string,
): Promise<PlatformChart> {
  const send: Send = (request) => platform.request(request);
  const target = { accounting_connection_id: connectionId };
  const unreadable: PlatformChart['unreadable'] = [];
  const glAccounts = await readList(send, '/accounting/accounts', target, 'gl_accounts', unreadable);
  const fieldList = await readList(send, '/accounting/fields', target, 'fields', unreadable);
  const fields: PlatformField[] = [];
  for (const field of fieldList) {
    const query = { ...target, field_id: field.svc_id };
    const options = await readList(
      send,
      '/accounting/field-options',
      query,
      `options of ${field.id}`,
      unreadable,
    );
    fields.push({ ...field, options });
  }
  return {
    gl_accounts: glAccounts,
    fields,
    vendors: await readList(send, '/accounting/vendors', target, 'vendors', unreadable),
    tax_rates: await readList(send, '/accounting/tax/rates', target, 'tax_rates', unreadable),
    tax_code_options: await readList(
      send,
      '/accounting/tax/code/options',
      target,
      'tax_code_options',
      unreadable,
    ),
    unreadable,
  };
}

/** Items per list (options summed over fields). */
export function chartCounts(chart: PlatformChart): Record<string, number> {
  return {
    gl_accounts: chart.gl_accounts.length,
    fields: chart.fields.length,
    field_options: chart.fields.reduce((n, f) => n + f.options.length, 0),
    vendors: chart.vendors.length,
    tax_rates: chart.tax_rates.length,
    tax_code_options: chart.tax_code_options.length,
  };
}
