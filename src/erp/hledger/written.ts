import type { HlTransaction, NewTransaction } from './client.ts';

/**
 * The transactions this process added, until hledger-web shows them. hledger-web answers an add
 * before its next read is sure to include it (it reloads the journal file when it sees the file
 * changed), so a bill acknowledged a moment ago may be missing from the very next read: its
 * payment would then be refused as paying an unknown bill, and a vendor just created would not
 * be listed. Every read is therefore completed with what was written and is not shown yet; an
 * entry is dropped as soon as a read shows it, so the set stays as small as hledger-web's lag.
 */

interface Written {
  reference: string;
  transaction: NewTransaction;
}

/** `name:value` tags of a comment, as hledger reads them from our own comments. */
export function tagsOfComment(comment: string): [string, string][] {
  const tags: [string, string][] = [];
  for (const part of comment.split(',')) {
    const match = /^\s*([^\s:,]+):(.*)$/.exec(part);
    if (match) tags.push([match[1]!, match[2]!.trim()]);
  }
  return tags;
}

/** A written transaction in the shape `/transactions` answers, with the fields the adapter reads. */
export function asListed(t: NewTransaction): HlTransaction {
  return {
    tindex: 0,
    tdate: t.date,
    tcode: t.code,
    tdescription: t.description,
    ttags: tagsOfComment(t.comment),
    tpostings: t.postings.map((p) => ({
      paccount: p.account,
      pamount: [
        { acommodity: p.commodity, aquantity: { decimalMantissa: p.mantissa, decimalPlaces: p.places } },
      ],
      ptags: tagsOfComment(p.comment),
    })),
  };
}

export class WrittenTransactions {
  private readonly byCode = new Map<string, Written>();

  add(code: string, reference: string, transaction: NewTransaction): void {
    this.byCode.set(code, { reference, transaction });
  }

  /** The reference told for a code this process wrote and hledger-web has not shown yet. */
  reference(code: string): string | undefined {
    return this.byCode.get(code)?.reference;
  }

  get size(): number {
    return this.byCode.size;
  }

  /**
   * A read completed with what is written but not shown: the transactions appended, their
   * accounts added to the names. What the read shows is forgotten here.
   */
  complete(
    names: string[],
    transactions: HlTransaction[],
  ): { names: string[]; transactions: HlTransaction[] } {
    if (this.byCode.size === 0) return { names, transactions };
    const shown = new Set(transactions.map((t) => t.tcode));
    const missing: HlTransaction[] = [];
    for (const [code, { transaction }] of this.byCode) {
      if (shown.has(code)) this.byCode.delete(code);
      else missing.push(asListed(transaction));
    }
    const known = new Set(names);
    const accounts = missing.flatMap((t) => t.tpostings.map((p) => p.paccount)).filter((a) => !known.has(a));
    return { names: [...names, ...new Set(accounts)], transactions: [...transactions, ...missing] };
  }
}
