import type { CustomField, ErpVendor, FieldOption, GlAccount } from '../../../../../src/erp/index.ts';
import type { Ledger, MirrorHarness } from './harness.ts';

const pad = (i: number) => String(i).padStart(5, '0');

/** 5,000 GL accounts, 2 fields × 5,000 options, 5,000 vendors, 5 rates and codes: 20,012 items. */
export async function largeLedger(h: MirrorHarness): Promise<Ledger> {
  const ledger = await h.newLedger();
  const accounts: GlAccount[] = Array.from({ length: 5000 }, (_, i) => ({
    id: `gl-${pad(i)}`,
    code: String(10000 + i),
    name: `Account ${i}`,
    classification: i % 3 === 0 ? 'ASSET' : 'EXPENSE',
    active: i % 50 !== 7,
    hidden: i % 40 === 3,
  }));
  const fields: CustomField[] = ['project', 'location'].map((id) => ({
    id,
    name: id,
    inputType: 'SINGLE_CHOICE',
    active: true,
    hidden: false,
    requiredFor: [],
  }));
  const options: FieldOption[] = fields.flatMap((f) =>
    Array.from({ length: 5000 }, (_, i) => ({
      fieldId: f.id,
      id: `${f.id}-${pad(i)}`,
      value: `${f.id} ${i}`,
      code: pad(i),
      active: i % 60 !== 11,
      hidden: i % 70 === 5,
    })),
  );
  const vendors: ErpVendor[] = Array.from({ length: 5000 }, (_, i) => ({
    id: `ven-${pad(i)}`,
    name: `Vendor ${i}`,
    code: `V${pad(i)}`,
    active: i % 30 !== 2,
  }));
  await ledger.write.accounts(accounts);
  await ledger.write.fields(fields);
  await ledger.write.options(options);
  await ledger.write.vendors(vendors);
  await ledger.write.taxRates(
    Array.from({ length: 5 }, (_, i) => ({
      id: `tr-${i}`,
      name: `Rate ${i}`,
      rate: `0.0${i}`,
      glAccountId: 'gl-00001',
    })),
  );
  await ledger.write.taxCodes(
    Array.from({ length: 5 }, (_, i) => ({
      id: `tc-${i}`,
      name: `Code ${i}`,
      rateIds: [`tr-${i}`],
      active: true,
    })),
  );
  return ledger;
}
