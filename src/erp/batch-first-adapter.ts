import type { ErpAdapter } from './adapter.ts';
import type { CustomField, ErpVendor, FieldOption, GlAccount, TaxCode, TaxRate } from './chart.ts';
import type {
  BillInput,
  BillPaymentInput,
  CardTransactionInput,
  CashbackInput,
  ErpWrite,
  LookupResult,
  ObjectKind,
  ReimbursementInput,
  TransferInput,
  VendorInput,
  WriteResult,
} from './types.ts';

/**
 * An adapter whose batch calls are the real implementation: every single-object write is a
 * postMany of one and lookup is a lookupMany of one, so both paths share one code path (and
 * one set of rules) in every ERP.
 */
export abstract class BatchFirstErp implements ErpAdapter {
  abstract readonly name: string;
  abstract glAccounts(): AsyncIterable<GlAccount>;
  abstract customFields(): AsyncIterable<CustomField>;
  abstract fieldOptions(fieldId: string): AsyncIterable<FieldOption>;
  abstract vendors(): AsyncIterable<ErpVendor>;
  abstract taxRates(): AsyncIterable<TaxRate>;
  abstract taxCodes(): AsyncIterable<TaxCode>;
  abstract postMany(items: readonly ErpWrite[]): Promise<WriteResult[]>;
  abstract lookupMany(keys: readonly { kind: ObjectKind; objectId: string }[]): Promise<LookupResult[]>;
  abstract close(): Promise<void>;

  private async postOne(input: ErpWrite): Promise<WriteResult> {
    const [result] = await this.postMany([input]);
    return result!;
  }
  createVendor(input: VendorInput): Promise<WriteResult> {
    return this.postOne(input);
  }
  postCardTransaction(input: CardTransactionInput): Promise<WriteResult> {
    return this.postOne(input);
  }
  postReimbursement(input: ReimbursementInput): Promise<WriteResult> {
    return this.postOne(input);
  }
  postTransfer(input: TransferInput): Promise<WriteResult> {
    return this.postOne(input);
  }
  postCashback(input: CashbackInput): Promise<WriteResult> {
    return this.postOne(input);
  }
  postBill(input: BillInput): Promise<WriteResult> {
    return this.postOne(input);
  }
  postBillPayment(input: BillPaymentInput): Promise<WriteResult> {
    return this.postOne(input);
  }
  async lookup(kind: ObjectKind, objectId: string): Promise<LookupResult> {
    const [result] = await this.lookupMany([{ kind, objectId }]);
    return result!;
  }
}
