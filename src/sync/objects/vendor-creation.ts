import type { ErpAdapter, VendorInput } from '../../erp/index.ts';
import { integratorReference, needsIntegrator, transient, userActionable } from '../../erp/index.ts';
import type { Logger } from '../../log.ts';
import type { Transaction } from '../../platform/index.ts';
import { PlatformError } from '../../platform/index.ts';
import type { Outcome } from '../sync-ledger/index.ts';
import type { SyncPlatform } from './platform-port.ts';

type Failure = Extract<Outcome, { ok: false }>;

export interface VendorCreationResult {
  /** Transactions that could not be given a vendor, with the reason; they are reported failed. */
  failures: Failure[];
  vendorsCreated: number;
}

function merchantKey(t: Transaction): string | null {
  const name = t.merchant_name?.trim();
  if (t.merchant_id) return `merchant:${t.merchant_id}`;
  return name ? `merchant-name:${name.toLowerCase().replace(/\s+/g, ' ')}` : null;
}

function failureFrom(objectId: string, error: unknown, step: string): Failure {
  if (error instanceof PlatformError && error.retryable) {
    const info = transient(
      'VENDOR_CREATION_UNAVAILABLE',
      'The accounting vendor could not be created now',
      `The spend platform did not answer while ${step}`,
    );
    return { objectId, ok: false, category: info.category, message: info.message };
  }
  const reason = error instanceof Error ? error.message : String(error);
  const info = needsIntegrator(
    'VENDOR_CREATION_FAILED',
    'The accounting vendor could not be created',
    `Failed while ${step}: ${reason}`,
    integratorReference('vendor-creation', objectId),
  );
  return { objectId, ok: false, category: info.category, message: info.message };
}

/**
 * The transactions that need an accounting vendor, grouped by the merchant it is created from
 * (its key is the vendor write's object id); one without a merchant fails. The dry run
 * (checkMissingVendors) checks the same vendor writes instead of making them.
 */
function vendorsToCreate(transactions: Transaction[]): {
  failures: Failure[];
  groups: Map<string, Transaction[]>;
} {
  const failures: Failure[] = [];
  const groups = new Map<string, Transaction[]>();
  for (const t of transactions) {
    if (t.requires_accounting_vendor_creation_to_sync !== true) continue;
    const key = merchantKey(t);
    if (!key) {
      const info = userActionable(
        'MISSING_MERCHANT',
        'The transaction has no merchant to create an accounting vendor from',
        'Choose an accounting vendor for it in the spend platform, then sync again',
      );
      failures.push({ objectId: t.id, ok: false, category: info.category, message: info.message });
      continue;
    }
    groups.set(key, [...(groups.get(key) ?? []), t]);
  }
  return { failures, groups };
}

/** The vendor write a group of transactions is given (idempotent by the merchant's key). */
function vendorWrite(key: string, group: readonly Transaction[]): VendorInput {
  return { kind: 'vendor', objectId: key, name: (group[0]?.merchant_name ?? '').trim() };
}

/**
 * docs/platform.md G26 (F17, F18): a ready transaction that needs an
 * accounting vendor gets one: the vendor is created in the ERP (once per merchant, idempotent by
 * the merchant's id), uploaded to the platform, and the transaction is coded to it, because
 * uploading the vendor alone does not attach it. The transaction objects are updated in place
 * with the new MERCHANT selection, ready to be posted.
 */
export async function createMissingVendors(
  context: { erp: ErpAdapter; platform: SyncPlatform; log: Logger },
  transactions: Transaction[],
): Promise<VendorCreationResult> {
  const { failures, groups } = vendorsToCreate(transactions);
  const result: VendorCreationResult = { failures, vendorsCreated: 0 };
  for (const [key, group] of groups) {
    const input = vendorWrite(key, group);
    const name = input.name;
    const created = await context.erp.createVendor(input);
    if (!created.ok) {
      for (const t of group)
        result.failures.push({
          objectId: t.id,
          ok: false,
          category: created.error.category,
          message: created.error.message,
        });
      continue;
    }
    if (!created.replayed) result.vendorsCreated++;
    try {
      await context.platform.uploadVendors([{ id: created.referenceId, name }]);
    } catch (error) {
      for (const t of group) result.failures.push(failureFrom(t.id, error, 'uploading the vendor'));
      continue;
    }
    for (const t of group) {
      try {
        await context.platform.codeTransactionVendor(t.id, created.referenceId);
        t.accounting_field_selections.push({
          id: `vendor:${created.referenceId}`,
          external_id: created.referenceId,
          name,
          type: 'MERCHANT',
          category_info: { id: 'Merchant', external_id: 'Merchant', name: 'Vendor', type: 'MERCHANT' },
        });
        t.requires_accounting_vendor_creation_to_sync = false;
      } catch (error) {
        result.failures.push(failureFrom(t.id, error, 'coding the transaction to the vendor'));
      }
    }
    context.log.debug(
      { merchant: key, vendor: created.referenceId, transactions: group.length },
      'accounting vendor attached',
    );
  }
  return result;
}

/**
 * The dry run's vendor creation (G26): the transactions whose accounting vendor could not be
 * created (no merchant, or the ERP would refuse the vendor). A vendor the ERP would accept is not
 * created; its transactions are checked as they stand (the real run codes them to it first).
 */
export async function checkMissingVendors(
  erp: ErpAdapter,
  transactions: Transaction[],
): Promise<{ failures: Failure[]; wouldCreateVendorsFor: number }> {
  const { failures, groups } = vendorsToCreate(transactions);
  const wouldCreateVendorsFor = failures.length + [...groups.values()].reduce((n, g) => n + g.length, 0);
  if (!erp.checkMany || groups.size === 0) return { failures, wouldCreateVendorsFor };
  const keys = [...groups.keys()];
  const checked = await erp.checkMany(keys.map((key) => vendorWrite(key, groups.get(key)!)));
  for (const [index, answer] of checked.entries()) {
    if (answer.ok) continue;
    for (const t of groups.get(keys[index]!)!)
      failures.push({
        objectId: t.id,
        ok: false,
        category: answer.error.category,
        message: answer.error.message,
      });
  }
  return { failures, wouldCreateVendorsFor };
}
