import type { PlannedEntry } from '../core/plan.ts';
import { KIND_LABEL } from '../labels.ts';
import type { NewTransaction } from './client.ts';
import { billTag } from './codes.ts';

/**
 * A planned entry (core/plan.ts) as an hledger transaction: the payee and memo as hledger's
 * `payee | note` description, the object code as its code, one posting per planned line (a debit
 * is a positive amount), each line's dimensions as posting tags (`project:apollo`, what an
 * hledger user queries with `tag:project=apollo`), and the counter legs tagged `ls-role:` so a
 * bill's payable leg can be found again. A payment names its bill with `ls-pays:`.
 */

/** A ':' in free text would start a tag in a comment or a subaccount in a name: keep it out. */
export const plainText = (text: string) => text.replace(/:/g, '\u2236').replace(/\s+/g, ' ').trim();

function description(entry: PlannedEntry): string {
  const note = plainText(entry.memo) || `${KIND_LABEL[entry.kind]} ${entry.objectId}`;
  const payee = entry.counterpart?.name ? plainText(entry.counterpart.name) : '';
  return payee ? `${payee} | ${note}` : note;
}

function transactionTags(entry: PlannedEntry, billObjectId: string | undefined): string[] {
  const tags: string[] = [];
  if (entry.bill?.invoiceNumber)
    tags.push(`invoice:${plainText(entry.bill.invoiceNumber).replace(/,/g, ' ')}`);
  if (entry.bill?.dueDate) tags.push(`due:${entry.bill.dueDate}`);
  if (billObjectId !== undefined) tags.push(`ls-pays:${billTag(billObjectId)}`);
  return tags;
}

export function toTransaction(entry: PlannedEntry, code: string, billObjectId?: string): NewTransaction {
  const { code: commodity, exponent } = entry.currency;
  return {
    date: entry.date,
    code,
    description: description(entry),
    comment: transactionTags(entry, billObjectId).join(', '),
    postings: entry.lines.map((line) => {
      const memo = line.memo && line.memo !== entry.memo ? plainText(line.memo).replace(/,/g, ' ') : '';
      const tags = [
        ...(line.role ? [`ls-role:${line.role}`] : []),
        ...Object.entries(line.dimensions).map(([field, value]) => `${field}:${value}`),
      ];
      return {
        account: line.accountId,
        commodity,
        mantissa: line.amount,
        places: exponent,
        comment: [memo, ...tags].filter(Boolean).join(', '),
      };
    }),
  };
}
