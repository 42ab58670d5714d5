import { z } from 'zod';
import { issuesText } from '../../zod-issues.ts';

/**
 * A client for hledger-web's JSON API (`hledger-web --serve-api`, 1.25): `GET /accountnames`,
 * `GET /transactions`, and `PUT /add` with one transaction in the shape `/transactions`
 * answers. Answers are read with tolerant schemas (only the fields the adapter uses); every call
 * has a timeout. Faults carry hledger-web's words and the path, never more.
 */

export interface HledgerConnection {
  /** hledger-web's root, e.g. http://127.0.0.1:5000 */
  url: string;
  /** Per call; a call that takes longer is an unavailable fault (default 30 s). */
  timeoutMs?: number;
}

/** `unavailable`: no answer (network, timeout, 5xx); `refused`: a 4xx; `answer`: a body we cannot read. */
export type HledgerFaultKind = 'unavailable' | 'refused' | 'answer';

export class HledgerFault extends Error {
  override readonly name = 'HledgerFault';
  constructor(
    readonly kind: HledgerFaultKind,
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

const Quantity = z.object({ decimalMantissa: z.number().int(), decimalPlaces: z.number().int().min(0) });
const Amount = z.object({ acommodity: z.string(), aquantity: Quantity });
const Tag = z.tuple([z.string(), z.string()]);
const Posting = z.object({ paccount: z.string(), pamount: z.array(Amount), ptags: z.array(Tag) });
const Transaction = z.object({
  tindex: z.number().int(),
  tdate: z.string(),
  tcode: z.string(),
  tdescription: z.string(),
  ttags: z.array(Tag),
  tpostings: z.array(Posting),
});
export type HlAmount = z.infer<typeof Amount>;
export type HlPosting = z.infer<typeof Posting>;
export type HlTransaction = z.infer<typeof Transaction>;

/** A transaction to add: what the adapter decides, the rest of hledger's shape is filled in. */
export interface NewTransaction {
  date: string;
  code: string;
  description: string;
  /** The transaction comment: tags as `name:value` pairs separated by commas. */
  comment: string;
  postings: { account: string; commodity: string; mantissa: number; places: number; comment: string }[];
}

const SOURCE_POS = { sourceName: '', sourceLine: 1, sourceColumn: 1 };

/** hledger-web 1.25 reads the full Transaction type: every field must be present. */
function transactionJson(t: NewTransaction): unknown {
  return {
    tindex: 0,
    tsourcepos: [SOURCE_POS, SOURCE_POS],
    tdate: t.date,
    tdate2: null,
    tstatus: 'Unmarked',
    tcode: t.code,
    tdescription: t.description,
    tcomment: t.comment,
    ttags: [],
    tprecedingcomment: '',
    tpostings: t.postings.map((p) => ({
      pdate: null,
      pdate2: null,
      pstatus: 'Unmarked',
      paccount: p.account,
      pamount: [
        {
          acommodity: p.commodity,
          aquantity: { decimalMantissa: p.mantissa, decimalPlaces: p.places, floatingPoint: 0 },
          aprice: null,
          astyle: {
            ascommodityside: 'L',
            ascommodityspaced: true,
            asdecimalpoint: '.',
            asdigitgroups: null,
            asprecision: p.places,
          },
        },
      ],
      pcomment: p.comment,
      ptype: 'RegularPosting',
      ptags: [],
      pbalanceassertion: null,
      ptransaction_: '0',
      poriginal: null,
    })),
  };
}

/** How long a call may take before it is given up (HledgerConnection.timeoutMs). */
export const HLEDGER_CALL_TIMEOUT_MS = 30_000;

export class HledgerClient {
  private readonly base: string;
  private readonly timeoutMs: number;

  constructor(connection: HledgerConnection) {
    this.base = connection.url.replace(/\/+$/, '');
    this.timeoutMs = connection.timeoutMs ?? HLEDGER_CALL_TIMEOUT_MS;
  }

  accountNames(): Promise<string[]> {
    return this.get('/accountnames', z.array(z.string()));
  }

  transactions(): Promise<HlTransaction[]> {
    return this.get('/transactions', z.array(Transaction));
  }

  /** Appends one transaction to the journal (hledger-web answers 201). */
  async add(transaction: NewTransaction): Promise<void> {
    const body = JSON.stringify(transactionJson(transaction));
    await this.call('/add', { method: 'PUT', body, headers: { 'content-type': 'application/json' } });
  }

  private async get<T>(path: string, schema: z.ZodType<T>): Promise<T> {
    const response = await this.call(path, { method: 'GET' });
    let json: unknown;
    try {
      json = await response.json();
    } catch {
      throw new HledgerFault('answer', path, 'the answer is not JSON');
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      throw new HledgerFault('answer', path, `unexpected answer (${issuesText(parsed.error, { limit: 1 })})`);
    }
    return parsed.data;
  }

  private async call(path: string, init: RequestInit): Promise<Response> {
    let response: Response;
    try {
      response = await fetch(`${this.base}${path}`, { ...init, signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (error) {
      const reason = error instanceof Error && error.name === 'TimeoutError' ? 'timed out' : 'unreachable';
      throw new HledgerFault('unavailable', path, `hledger-web ${reason}`);
    }
    if (response.ok) return response;
    const text = (await response.text().catch(() => '')).slice(0, 300);
    const kind = response.status >= 500 || response.status === 429 ? 'unavailable' : 'refused';
    throw new HledgerFault(kind, path, `HTTP ${response.status}${text ? `: ${text}` : ''}`);
  }
}
