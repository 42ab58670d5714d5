import type { Sql } from 'postgres';
import type { PlatformClient } from '../../platform/index.ts';
import { PlatformError, TAX_CODE_FIELD_EXTERNAL_ID, TaxCode } from '../../platform/index.ts';
import type { ChartPlatform, MapScope, MirrorKind, RemoteItem } from '../mirror/index.ts';
import {
  contentHash,
  fieldOps,
  fieldOptionOps,
  forgetConnection,
  glAccountOps,
  recordMapped,
  taxCodeOptionOps,
  taxRateOps,
  vendorOps,
} from '../mirror/index.ts';

/** What rebuilding reads: the chart lists, and the tax code field by a plain GET. */
export type RebuildPlatform = ChartPlatform & Pick<PlatformClient, 'request'>;

export type RebuiltCounts = Partial<Record<MirrorKind, number>>;

async function collect(items: AsyncIterable<RemoteItem>): Promise<RemoteItem[]> {
  const out: RemoteItem[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/**
 * Rebuilds a connection's id_map from what the platform holds for it (reads only, every list
 * filtered to the connection, docs/platform.md G30): each item's svc_id, content hash, active flag
 * and visibility, exactly as the mirror records an upload or an adoption (F12). Rows of items the
 * platform no longer holds are dropped, so the next mirror (or restore) uploads them again instead
 * of PATCHing an svc_id that is gone. The tax code field is read by `GET /accounting/tax/code`
 * (F31), which answers 404 when the connection has none.
 *
 * Used when a connection's rows are missing or stale: after a switch to a connection preloaded
 * elsewhere, and before a restore. The caller holds the connection's mirror lock.
 */
export async function rebuildIdMap(
  deps: { sql: Sql; platform: RebuildPlatform },
  connectionId: string,
): Promise<RebuiltCounts> {
  const chart = deps.platform.chart;
  const target = { accounting_connection_id: connectionId };
  const meter = { writes: 0, reads: 0 };
  const scopes: Array<{ scope: MapScope; items: RemoteItem[] }> = [];
  const scope = (kind: MirrorKind, parentRemoteId = ''): MapScope => ({
    connectionId,
    kind,
    parentRemoteId,
  });

  const glAccounts = await collect(glAccountOps(chart, target, meter).list());
  scopes.push({ scope: scope('gl_account'), items: glAccounts });
  const fields = await collect(fieldOps(chart, target, meter).list());
  scopes.push({ scope: scope('field'), items: fields });
  for (const field of fields) {
    const options = await collect(fieldOptionOps(chart, target, meter, field.svcId).list());
    scopes.push({ scope: scope('field_option', field.remoteId), items: options });
  }
  scopes.push({ scope: scope('vendor'), items: await collect(vendorOps(chart, target, meter).list()) });
  // A rate names its GL account by svc_id; the content hash compares remote ids (kinds/tax.ts).
  const glRemoteId = new Map(glAccounts.map((a) => [a.svcId, a.remoteId]));
  const rates = taxRateOps(chart, target, meter, (svcId) => glRemoteId.get(svcId) ?? svcId);
  scopes.push({ scope: scope('tax_rate'), items: await collect(rates.list()) });
  const taxCodeField = await readTaxCodeField(deps.platform, connectionId);
  scopes.push({ scope: scope('tax_code_field'), items: taxCodeField ? [taxCodeField] : [] });
  scopes.push({
    scope: scope('tax_code_option'),
    items: await collect(taxCodeOptionOps(chart, target, meter).list()),
  });

  await deps.sql.begin(async (tx) => {
    await forgetConnection(tx as unknown as Sql, connectionId);
    for (const { scope: s, items } of scopes) await recordMapped(tx as unknown as Sql, s, items);
  });
  const counts: RebuiltCounts = {};
  for (const { scope: s, items } of scopes) counts[s.kind] = (counts[s.kind] ?? 0) + items.length;
  return counts;
}

/** The connection's tax code field as the mirror records it (kinds/tax.ts), or null (404). */
async function readTaxCodeField(platform: RebuildPlatform, connectionId: string): Promise<RemoteItem | null> {
  let body: unknown;
  try {
    const response = await platform.request({
      method: 'GET',
      path: '/accounting/tax/code',
      query: { accounting_connection_id: connectionId },
    });
    body = response.body;
  } catch (error) {
    if (error instanceof PlatformError && error.status === 404) return null;
    throw error;
  }
  const code = TaxCode.safeParse(body);
  if (!code.success) return null;
  return {
    remoteId: TAX_CODE_FIELD_EXTERNAL_ID,
    svcId: code.data.svc_id,
    hash: contentHash({ name: code.data.name }),
    isActive: code.data.is_active,
    visibility: 'VISIBLE',
  };
}
