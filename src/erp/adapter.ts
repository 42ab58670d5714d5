import type { CustomField, ErpVendor, FieldOption, GlAccount, TaxCode, TaxRate } from './chart.ts';
import type { CheckResult, ErpWrite, VendorInput, WriteResult } from './types.ts';

/**
 * The contract every ERP implements (the built-in ERP, and Tryton over JSON-RPC).
 * It speaks ERP-neutral domain objects (types.ts, chart.ts), never platform JSON: the sync layer
 * maps platform objects to inputs and chart items to uploads.
 *
 * Reads: the chart of accounts as streams, so a 100k-item chart never sits in memory. A read
 * that fails throws an `ErpError` (errors.ts) whose category says whether to retry.
 *
 * The contract is what the sync pipeline calls, nothing more: a new ERP implements ten members
 * (and may add the optional `checkMany`, for dry runs).
 * Writes go through `postMany` (one object is a batch of one: post-one.ts), plus `createVendor`
 * for accounting-vendor creation.
 *
 * Writes: idempotent by (kind, platform object id). A second call with an id the ERP already
 * holds writes nothing and returns the first result with `replayed: true`, even when the input
 * differs; two concurrent calls with one id write once. A refused write leaves nothing behind,
 * so the same id may be posted again after the bookkeeper fixes the cause.
 *
 * Uncertain outcomes (a timeout, a worker killed mid-batch) need no look-up method: the object
 * stays ready on the platform, the next sync posts it again with `postMany`, and the ERP's
 * idempotent replay answers with the first write's reference (`replayed: true`) or writes it now.
 * Replay is therefore the one recovery path, and the conformance kit (kit/) checks it.
 *
 * Errors: write methods never reject. Every outcome is a `WriteResult` value: `{ ok: true,
 * referenceId, deepLinkUrl?, replayed }` or `{ ok: false, error: ErpErrorInfo }` where
 * `error.category` is `user_actionable` (title + fix), `transient` (retry later) or
 * `needs_integrator` (reference id); `error.message` is ready for the platform's
 * `failed_syncs[].error.message`. An input that fails its zod schema is refused as
 * `needs_integrator` (code INVALID_INPUT): it is a mapping fault, not the bookkeeper's.
 *
 * Amounts: integer minor units with the currency's code and exponent. Line amounts include tax;
 * the ERP splits tax out by the line's tax code.
 */
export interface ErpAdapter {
  /** A short name for logs and the status page: "ledger", "tryton". */
  readonly name: string;
  /**
   * Optional, for an ERP whose idempotency is a look-up before a create rather than a key it
   * enforces itself: how long a write may still take effect after its caller is gone (a process
   * killed while the ERP was working on its call). An object an interrupted run left claimed is
   * written again only this long after that claim, so the look-up sees what the interrupted call
   * did (src/sync/sync-ledger/in-doubt.ts). Absent or 0: the ERP holds each key once however its
   * calls overlap, so a late write and its retry cannot both land.
   */
  readonly writeSettleMs?: number;

  glAccounts(): AsyncIterable<GlAccount>;
  /** Custom fields without their options; options stream per field (they can be 100k). */
  customFields(): AsyncIterable<CustomField>;
  fieldOptions(fieldId: string): AsyncIterable<FieldOption>;
  vendors(): AsyncIterable<ErpVendor>;
  taxRates(): AsyncIterable<TaxRate>;
  taxCodes(): AsyncIterable<TaxCode>;

  /** referenceId is the new vendor's remote id (upload it to the platform under that id). */
  createVendor(input: VendorInput): Promise<WriteResult>;
  /**
   * Many writes in few round trips; results come back in input order, one per item. Each item
   * is idempotent and refused on its own: a bad item never fails the others. A bill and its
   * payment may travel in one batch: the payment is applied after the bill. A posted bill's
   * result carries a deepLinkUrl when the ERP's public base URL is configured, and none
   * otherwise (docs/platform.md F42); a payment names its bill by platform object id, and the
   * bill must already be in the ERP or earlier in the batch.
   */
  postMany(items: readonly ErpWrite[]): Promise<WriteResult[]>;
  /**
   * Optional: what postMany would answer for these items now, writing nothing, so a dry run
   * (`sync <kind> --dry-run`) makes the decisions a real run makes. Same rules as postMany: one
   * result per item in input order, each refused on its own with the refusal postMany would give,
   * a held key answers `replayed: true`, and a payment of a bill earlier in the call is checked as
   * if that bill were posted. Never rejects. Without it, a dry run counts every write the ERP
   * would receive as unchecked (it cannot foresee the ERP's refusals) and says so.
   */
  checkMany?(items: readonly ErpWrite[]): Promise<CheckResult[]>;

  /** Releases what the adapter itself opened (never a pool it was given). */
  close(): Promise<void>;
}
