import { z } from 'zod';
import { type Logger, silentLogger } from '../../log.ts';
import { followCursor, PAGE_LIMITS } from '../../page-guard.ts';
import type { RetryOptions } from '../../platform/index.ts';
import { issuesText } from '../../zod-issues.ts';
import type { ErpAdapter } from '../adapter.ts';
import {
  CHART_STREAM_ITEMS_MAX,
  CustomField,
  ErpVendor,
  FieldOption,
  GlAccount,
  TaxCode,
  TaxRate,
} from '../chart.ts';
import { ErpError, type ErpErrorInfo, ErpPagingError } from '../errors.ts';
import { type ErpWrite, type ObjectKind, type VendorInput, WriteResult } from '../types.ts';
import type { HttpErpCredentials } from './auth.ts';
import { DEFAULT_HTTP_ERP_RETRY, HttpErpTransport, malformed } from './transport.ts';
import { pageOf } from './wire.ts';

export interface HttpErpOptions extends HttpErpCredentials {
  /** Base URL of the service implementing docs/erp-http-contract.json. */
  url: string;
  /** Per attempt (default 30 s). */
  timeoutMs?: number;
  retry?: RetryOptions;
  /** Items per POST /entries (default 500): bounds one request's size and time. */
  chunkSize?: number;
  log?: Logger;
}

const ResultList = z.object({ results: z.array(z.unknown()) });

/** A chart stream is held whole by its readers, so its items are capped as well as its pages. */
const CHART_PAGE_LIMITS = { ...PAGE_LIMITS, items: CHART_STREAM_ITEMS_MAX };

function failure(item: { kind: ObjectKind; objectId: string }, error: ErpErrorInfo): WriteResult {
  return { ok: false, kind: item.kind, objectId: item.objectId, error };
}

/**
 * An ERP reached over HTTP (docs/erp-http.md): every method is one or a few calls of the
 * contract, every answer parsed with the contract's zod schemas. Writes never reject: a service
 * that cannot be reached yields `transient` results, a refusal or a malformed answer
 * `needs_integrator` results, each item on its own.
 */
export class HttpErp implements ErpAdapter {
  readonly name = 'http';
  private readonly transport: HttpErpTransport;
  private readonly chunkSize: number;

  constructor(options: HttpErpOptions) {
    this.transport = new HttpErpTransport({
      url: options.url,
      token: options.token,
      hmacSecret: options.hmacSecret,
      timeoutMs: options.timeoutMs ?? 30_000,
      retry: options.retry ?? DEFAULT_HTTP_ERP_RETRY,
      log: options.log ?? silentLogger,
    });
    this.chunkSize = options.chunkSize ?? 500;
  }

  glAccounts(): AsyncIterable<GlAccount> {
    return this.pages('/chart/gl-accounts', GlAccount, 'GL accounts');
  }
  customFields(): AsyncIterable<CustomField> {
    return this.pages('/chart/custom-fields', CustomField, 'custom fields');
  }
  fieldOptions(fieldId: string): AsyncIterable<FieldOption> {
    return this.pages(
      `/chart/custom-fields/${encodeURIComponent(fieldId)}/options`,
      FieldOption,
      'field options',
    );
  }
  vendors(): AsyncIterable<ErpVendor> {
    return this.pages('/chart/vendors', ErpVendor, 'vendors');
  }
  taxRates(): AsyncIterable<TaxRate> {
    return this.pages('/chart/tax-rates', TaxRate, 'tax rates');
  }
  taxCodes(): AsyncIterable<TaxCode> {
    return this.pages('/chart/tax-codes', TaxCode, 'tax codes');
  }

  /**
   * Follows nextCursor page by page: one page in memory at a time. A stream whose cursor does not
   * move on (a cursor already followed, a page that repeats an earlier one, empty pages that point
   * onward without end, more items than any chart holds) ends with an ErpPagingError naming the
   * route and the chart item type (src/page-guard.ts).
   */
  private async *pages<T>(path: string, item: z.ZodType<T>, what: string): AsyncGenerator<T> {
    const page = pageOf(item);
    const pages = followCursor<string | null, T[]>({
      first: null,
      read: async (cursor) => {
        const query: string = cursor === null ? '' : `?cursor=${encodeURIComponent(cursor)}`;
        const outcome = await this.transport.call('GET', `${path}${query}`);
        if (!outcome.ok) throw new ErpError(outcome.error);
        const parsed = page.safeParse(outcome.body);
        if (!parsed.success)
          throw new ErpError(malformed(`GET ${path}`, issuesText(parsed.error, { root: 'value' })));
        return { page: parsed.data.items, items: parsed.data.items, next: parsed.data.nextCursor };
      },
      keyOf: (cursor) => cursor ?? '',
      broken: (fault) => new ErpPagingError(`GET ${path}`, what, fault),
      limits: CHART_PAGE_LIMITS,
    });
    for await (const items of pages) yield* items;
  }

  async createVendor(input: VendorInput): Promise<WriteResult> {
    const outcome = await this.transport.call('POST', '/vendors', input);
    if (!outcome.ok) return failure(input, outcome.error);
    const parsed = WriteResult.safeParse(outcome.body);
    return parsed.success
      ? parsed.data
      : failure(input, malformed('POST /vendors', issuesText(parsed.error, { root: 'value' })));
  }

  async postMany(items: readonly ErpWrite[]): Promise<WriteResult[]> {
    const results: WriteResult[] = [];
    // Chunks go one after another: a bill earlier in the input is written before its payment.
    for (let start = 0; start < items.length; start += this.chunkSize) {
      results.push(...(await this.postChunk(items.slice(start, start + this.chunkSize))));
    }
    return results;
  }

  private async postChunk(items: readonly ErpWrite[]): Promise<WriteResult[]> {
    const outcome = await this.transport.call('POST', '/entries', { items });
    if (!outcome.ok) return items.map((item) => failure(item, outcome.error));
    const list = ResultList.safeParse(outcome.body);
    if (!list.success || list.data.results.length !== items.length) {
      const issues = list.success
        ? `${list.data.results.length} results for ${items.length} items`
        : issuesText(list.error, { root: 'value' });
      return items.map((item) => failure(item, malformed('POST /entries', issues)));
    }
    // Each result stands alone: one malformed result fails its item only.
    return items.map((item, i) => {
      const parsed = WriteResult.safeParse(list.data.results[i]);
      return parsed.success
        ? parsed.data
        : failure(item, malformed('POST /entries', issuesText(parsed.error, { root: 'value' })));
    });
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}
