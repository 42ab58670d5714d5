import type { ErpAdapter } from './adapter.ts';
import type { ErpWrite, WriteResult } from './types.ts';

/**
 * One write as a batch of one: the contract has no single-object methods, so an adapter's
 * `createVendor` and any caller posting a lone object share postMany's rules and code path.
 * An answer with other than one result is the adapter's fault, and throws.
 */
export async function postOne(erp: Pick<ErpAdapter, 'postMany'>, write: ErpWrite): Promise<WriteResult> {
  const results = await erp.postMany([write]);
  if (results.length !== 1) {
    throw new Error(`postMany answered ${results.length} results for one ${write.kind} ${write.objectId}`);
  }
  return results[0]!;
}
