/**
 * Seeded random answers in the shapes the published schemas allow for the fields the client reads
 * (docs/platform.md F22–F27, F33, F36–F38, F40): optional fields dropped, nullable ones null,
 * unknown fields added, enum values varied, numbers zero or negative where allowed, strings empty
 * or unicode, lists empty or long. `corruptItem` makes an item the client cannot use (a field it
 * needs missing or of the wrong type); `corruptBody` an answer of the wrong shape as a whole.
 */

/** mulberry32: a small seeded PRNG, so a failing run is repeated exactly by its seed. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** How a field may appear: always, possibly absent (F36), possibly null (F37), or either. */
type Presence = 'required' | 'optional' | 'nullable' | 'optional-nullable';
type Spec = Record<string, [Presence, () => unknown]>;

const TEXTS = [
  '',
  'plain',
  'Café Ünïcödé',
  '日本語のテキスト',
  '😀 emoji 🚀',
  '  spaced  ',
  'quote " and \\ backslash',
  'line\nbreak\ttab',
  'x'.repeat(300),
];

export class AnswerFuzz {
  private readonly random: () => number;
  private serial = 0;

  constructor(seed: number) {
    this.random = mulberry32(seed);
  }

  chance(p: number): boolean {
    return this.random() < p;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.random() * (max - min + 1));
  }

  pick<T>(values: readonly T[]): T {
    return values[this.int(0, values.length - 1)] as T;
  }

  text(): string {
    return this.pick(TEXTS);
  }

  /** A uuid-like id, unique within this generator. */
  id(): string {
    this.serial++;
    return `${this.int(0, 0xffffff).toString(16).padStart(8, '0')}-0000-4000-8000-${String(this.serial).padStart(12, '0')}`;
  }

  /** Any integer the schemas allow where signed amounts are allowed: zero, negative, large. */
  integer(): number {
    return this.pick([0, -1, 1, -987_654, 123_456_789, 2 ** 31, -(2 ** 31), this.int(-100_000, 100_000)]);
  }

  number(): number {
    return this.pick([0, -0.01, 12.5, -1234.56, 1e9, this.integer()]);
  }

  bool(): boolean {
    return this.chance(0.5);
  }

  timestamp(): string {
    return this.pick([
      '2026-01-05T10:00:00Z',
      '2025-12-31T23:59:59.999+00:00',
      '2026-02-28',
      '1970-01-01T00:00:00Z',
    ]);
  }

  /** A list: often empty, usually short, sometimes long. */
  list<T>(item: () => T, long = 60): T[] {
    const length = this.chance(0.3) ? 0 : this.chance(0.1) ? this.int(long, long * 2) : this.int(1, 3);
    return Array.from({ length }, item);
  }

  /** Some JSON value, for unknown extra fields. */
  anyJson(depth = 0): unknown {
    const kind = this.int(0, depth > 1 ? 3 : 5);
    if (kind === 0) return null;
    if (kind === 1) return this.text();
    if (kind === 2) return this.number();
    if (kind === 3) return this.bool();
    if (kind === 4) return this.list(() => this.anyJson(depth + 1), 5);
    return { [`k${this.int(0, 9)}`]: this.anyJson(depth + 1) };
  }

  /** An object from its fields' presences, with an unknown field now and then (F22). */
  object(spec: Spec): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [key, [presence, value]] of Object.entries(spec)) {
      const mayDrop = presence === 'optional' || presence === 'optional-nullable';
      const mayNull = presence === 'nullable' || presence === 'optional-nullable';
      if (mayDrop && this.chance(0.3)) continue;
      out[key] = mayNull && this.chance(0.3) ? null : value();
    }
    if (this.chance(0.4)) out[`unknown_${this.int(0, 99)}`] = this.anyJson();
    return out;
  }

  // ---------------------------------------------------------------- amounts (F22)

  currencyAmount(): Record<string, unknown> {
    return this.object({
      amount: ['required', () => this.integer()],
      currency_code: ['required', () => this.pick(['USD', 'EUR', 'JPY', 'KWD', 'USDC'])],
    });
  }

  valueAmount(): Record<string, unknown> {
    return this.object({
      value: ['required', () => this.integer()],
      currency: ['required', () => this.pick(['USD', 'EUR', 'JPY'])],
    });
  }

  // ---------------------------------------------------------------- codings (F16, F24, F26, F36)

  selection(onBill = false): Record<string, unknown> {
    const type = () =>
      this.pick([
        'GL_ACCOUNT',
        'MERCHANT',
        'TAX_CODE',
        'OTHER',
        'NON_ERP',
        'UNIT_OF_MEASURE',
        'SOMETHING_NEW',
      ]);
    return this.object({
      id: ['nullable', () => this.id()],
      external_id: ['nullable', () => this.text()],
      name: ['nullable', () => this.text()],
      ...(onBill ? {} : { type: ['nullable', type] as [Presence, () => unknown] }),
      category_info: [
        'optional-nullable',
        () =>
          this.object({
            id: ['nullable', () => this.id()],
            external_id: ['nullable', () => this.text()],
            name: ['nullable', () => this.text()],
            type: ['nullable', type],
          }),
      ],
      source: ['optional', () => this.text()],
      external_code: ['optional', () => this.text()],
      provider_name: ['required', () => this.text()],
    });
  }

  lineItem(amount: 'currency' | 'currency-or-null'): Record<string, unknown> {
    return this.object({
      amount: [amount === 'currency' ? 'required' : 'nullable', () => this.currencyAmount()],
      converted_amount: ['optional', () => this.currencyAmount()],
      memo: ['optional', () => this.text()],
      accounting_field_selections: ['required', () => this.list(() => this.selection(), 8)],
    });
  }

  // ---------------------------------------------------------------- ready objects

  /** F16, F23, F36, F37. */
  transaction(): Record<string, unknown> {
    return this.object({
      id: ['required', () => this.id()],
      amount: ['required', () => this.number()],
      currency_code: ['required', () => this.pick(['USD', 'EUR'])],
      entity_amount: ['optional', () => this.valueAmount()],
      merchant_amount: ['optional', () => this.valueAmount()],
      original_transaction_amount: ['nullable', () => this.currencyAmount()],
      minor_unit_conversion_rate: ['nullable', () => this.integer()],
      entity_id: ['required', () => this.id()],
      merchant_id: ['required', () => this.id()],
      merchant_name: ['required', () => this.text()],
      merchant_location: ['nullable', () => this.text()],
      card_holder: [
        'required',
        () =>
          this.object({
            user_id: ['required', () => this.id()],
            first_name: ['required', () => this.text()],
            last_name: ['required', () => this.text()],
            employee_id: ['optional', () => this.text()],
          }),
      ],
      card_present: ['required', () => this.bool()],
      user_transaction_time: ['required', () => this.timestamp()],
      settlement_date: ['required', () => this.timestamp()],
      accounting_date: ['required', () => this.timestamp()],
      memo: ['optional-nullable', () => this.text()],
      location_id: ['optional', () => this.id()],
      location_name: ['optional', () => this.text()],
      spend_program_id: ['optional', () => this.id()],
      statement_id: ['optional', () => this.id()],
      sk_category_id: ['required', () => this.integer()],
      sk_category_name: ['required', () => this.text()],
      trip_id: ['nullable', () => this.id()],
      trip_name: ['nullable', () => this.text()],
      accounting_field_selections: ['required', () => this.list(() => this.selection(), 8)],
      line_items: ['required', () => this.list(() => this.lineItem('currency'), 20)],
      sync_status: ['required', () => this.pick(['NOT_SYNC_READY', 'SYNC_READY', 'SYNCED'])],
      synced_at: ['nullable', () => this.timestamp()],
      requires_accounting_vendor_creation_to_sync: ['optional', () => this.bool()],
    });
  }

  /** F24, F37: the currency is `currency`; employee_id, memo, merchant, trip_id may be null. */
  reimbursement(): Record<string, unknown> {
    return this.object({
      id: ['required', () => this.id()],
      amount: ['required', () => this.currencyAmount()],
      currency: ['required', () => this.pick(['USD', 'EUR'])],
      entity_id: ['nullable', () => this.id()],
      user_id: ['required', () => this.id()],
      user_full_name: ['required', () => this.text()],
      employee_id: ['nullable', () => this.text()],
      memo: ['nullable', () => this.text()],
      merchant: ['nullable', () => this.text()],
      trip_id: ['nullable', () => this.id()],
      transaction_date: ['nullable', () => this.timestamp()],
      approved_at: ['nullable', () => this.timestamp()],
      created_at: ['required', () => this.timestamp()],
      type: ['required', () => this.pick(['OUT_OF_POCKET', 'MILEAGE', 'PER_DIEM'])],
      accounting_field_selections: ['required', () => this.list(() => this.selection(), 8)],
      line_items: ['required', () => this.list(() => this.lineItem('currency-or-null'), 20)],
      sync_status: ['required', () => this.pick(['NOT_SYNC_READY', 'SYNC_READY', 'SYNCED'])],
      synced_at: ['nullable', () => this.timestamp()],
    });
  }

  /** F25: a CurrencyAmount, no top-level currency; cashbacks share the shape. */
  transfer(): Record<string, unknown> {
    return this.object({
      id: ['required', () => this.id()],
      amount: ['required', () => this.currencyAmount()],
      entity_id: ['optional-nullable', () => this.id()],
      created_at: ['required', () => this.timestamp()],
      memo: ['optional-nullable', () => this.text()],
      status: [
        'required',
        () =>
          this.pick([
            'ACH_CONFIRMED',
            'CANCELED',
            'COMPLETED',
            'ERROR',
            'INITIATED',
            'NOT_ENOUGH_FUNDS',
            'UPLOADED',
          ]),
      ],
      sync_status: ['required', () => this.pick(['NOT_SYNC_READY', 'SYNC_READY', 'SYNCED'])],
      synced_at: ['nullable', () => this.timestamp()],
    });
  }

  /** F26, F36, F37, F38. */
  bill(): Record<string, unknown> {
    const paid = this.chance(0.5);
    return this.object({
      id: ['required', () => this.id()],
      invoice_number: ['nullable', () => this.text()],
      vendor: [
        'required',
        () =>
          this.object({
            id: ['required', () => this.id()],
            name: ['required', () => this.text()],
            remote_id: ['optional', () => this.text()],
            remote_code: ['optional', () => this.text()],
            remote_name: ['optional', () => this.text()],
          }),
      ],
      entity_id: ['required', () => this.id()],
      amount: ['required', () => this.currencyAmount()],
      status: ['required', () => (paid ? 'PAID' : 'OPEN')],
      payment_status: ['required', () => this.pick(['OPEN', 'PAID', 'SCHEDULED', 'NEW_STATUS'])],
      sync_status: ['required', () => this.pick(['NOT_SYNCED', 'BILL_SYNCED', 'BILL_AND_PAYMENT_SYNCED'])],
      issued_at: ['required', () => this.timestamp()],
      due_at: ['required', () => this.timestamp()],
      paid_at: ['nullable', () => this.timestamp()],
      created_at: ['required', () => this.timestamp()],
      memo: ['optional', () => this.text()],
      vendor_memo: ['optional', () => this.text()],
      posting_date: ['optional', () => this.timestamp()],
      deep_link_url: ['nullable', () => `https://example.com/bills/${this.id()}`],
      remote_id: ['nullable', () => this.text()],
      accounting_field_selections: ['required', () => this.list(() => this.selection(true), 8)],
      line_items: ['required', () => this.list(() => this.lineItem('currency'), 20)],
      payment: [
        paid ? 'required' : 'optional-nullable',
        () =>
          this.object({
            // F38: the 2026 schema has the key with a value that may be null; 2025 has none.
            id: ['optional-nullable', () => this.id()],
            amount: ['required', () => this.currencyAmount()],
            payment_date: ['required', () => this.timestamp()],
            payment_method: ['required', () => this.pick(['ACH', 'CHECK', 'CARD', 'WIRE'])],
            effective_date: ['required', () => this.timestamp()],
          }),
      ],
    });
  }

  /** F27: the published shape or the guide's. */
  entity(): Record<string, unknown> {
    const account = () =>
      this.object({
        id: ['required', () => this.id()],
        usage_type: ['required', () => this.pick(['BILL_PAY_BANK_ACCOUNT', 'CARD_FUNDING', 'OTHER'])],
        currency: ['optional', () => this.pick(['USD', 'EUR'])],
      });
    if (this.chance(0.5)) {
      return this.object({
        id: ['required', () => this.id()],
        entity_name: ['required', () => this.text()],
        currency: ['required', () => this.pick(['usd', 'EUR', 'JPY'])],
        is_primary: ['required', () => this.bool()],
        accounts: ['required', () => this.list(account, 10)],
        location_ids: ['required', () => this.list(() => this.id(), 10)],
      });
    }
    return this.object({
      id: ['required', () => this.id()],
      name: ['required', () => this.text()],
      currency: ['optional', () => this.pick(['USD', 'EUR'])],
      payment_accounts: ['required', () => this.list(account, 10)],
      bank_accounts: ['required', () => this.list(account, 10)],
    });
  }

  // ---------------------------------------------------------------- upload answers (F8–F13, F41)

  private chartItem(extra: Spec): Record<string, unknown> {
    return this.object({
      id: ['required', () => this.id()],
      svc_id: ['required', () => this.id()],
      is_active: ['optional', () => this.bool()],
      created_at: ['optional', () => this.timestamp()],
      updated_at: ['optional', () => this.timestamp()],
      ...extra,
    });
  }

  glAccount(): Record<string, unknown> {
    return this.chartItem({
      name: ['required', () => this.text()],
      code: ['optional-nullable', () => this.text()],
      classification: ['required', () => this.pick(['ASSET', 'EXPENSE', 'LIABILITY', 'REVENUE', 'UNKNOWN'])],
      visibility: ['optional', () => this.pick(['VISIBLE', 'HIDDEN'])],
    });
  }

  fieldOption(): Record<string, unknown> {
    return this.chartItem({
      value: ['required', () => this.text()],
      display_name: ['optional-nullable', () => this.text()],
      code: ['optional-nullable', () => this.text()],
      visibility: ['optional', () => this.pick(['VISIBLE', 'HIDDEN'])],
      field_id: ['optional', () => this.id()],
    });
  }

  accountingVendor(): Record<string, unknown> {
    return this.chartItem({
      name: ['required', () => this.text()],
      code: ['optional-nullable', () => this.text()],
      accounting_connection_id: ['optional', () => this.id()],
    });
  }

  taxRate(): Record<string, unknown> {
    return this.chartItem({
      name: ['required', () => this.text()],
      rate: ['required', () => (this.chance(0.5) ? this.pick(['0.05', '-0.2', '0', '19.6']) : this.number())],
      accounting_gl_account_id: ['optional', () => this.id()],
    });
  }

  taxCodeOption(): Record<string, unknown> {
    return this.chartItem({
      name: ['required', () => this.text()],
      tax_rate_ids: ['required', () => this.list(() => this.text(), 10)],
      accounting_connection_id: ['required', () => this.id()],
    });
  }

  uploadAnswer(key: string, item: () => unknown): { body: Record<string, unknown>; items: unknown[] } {
    const items = this.list(item, 100);
    const body = this.object({
      accounting_connection_id: ['optional', () => this.id()],
      [key]: ['required', () => items],
    });
    return { body, items };
  }

  // ---------------------------------------------------------------- other answers

  /** F33: `{sync_id}` alone, or with per-item results (F14). */
  syncResult(): Record<string, unknown> {
    return this.object({
      id: ['required', () => this.id()],
      status: ['required', () => this.pick(['SYNCED', 'FAILED', 'REJECTED'])],
      reason: ['optional', () => this.text()],
    });
  }

  /** F6, F37: a connection, its provider name possibly null. */
  connection(): Record<string, unknown> {
    return this.object({
      id: ['required', () => this.id()],
      connection_type: ['required', () => this.pick(['API', 'CSV', 'DIRECT'])],
      created_at: ['required', () => this.timestamp()],
      is_active: ['required', () => this.bool()],
      is_ready_to_migrate: ['optional-nullable', () => this.bool()],
      last_linked_at: ['optional-nullable', () => this.timestamp()],
      remote_provider_name: ['nullable', () => this.text()],
      status: ['optional-nullable', () => this.pick(['linked', 'unlinked'])],
    });
  }

  /** F1, F40: `expires_in` any integer or absent. */
  token(): Record<string, unknown> {
    return this.object({
      access_token: ['required', () => `svc_business_tok_${this.id()}`],
      token_type: ['required', () => 'Bearer'],
      expires_in: ['optional', () => this.pick([0, -1, -3600, 1, 3600, 864_000, this.integer()])],
      scope: ['optional', () => this.pick(['', 'accounting:read', 'accounting:read accounting:write'])],
      refresh_token: ['optional', () => this.text()],
    });
  }

  // ---------------------------------------------------------------- corruption

  /** An item the client cannot use: not an object, or its id missing, empty or not a string. */
  corruptItem(item: Record<string, unknown>, needed: string): unknown {
    const { [needed]: _dropped, ...without } = item;
    return this.pick<unknown>([
      null,
      42,
      'not an object',
      [item],
      without,
      { ...item, [needed]: '' },
      { ...item, [needed]: { nested: true } },
      { ...item, [needed]: 7 },
    ]);
  }

  /** A whole answer of the wrong shape: a raw non-JSON text or a JSON value. */
  corruptBody(): { raw?: string; body?: unknown } {
    return this.pick<{ raw?: string; body?: unknown }>([
      { raw: '{"data": [' },
      { raw: '<html>oops</html>' },
      { body: null },
      { body: 'text' },
      { body: 17 },
      { body: [] },
      { body: { data: { not: 'a list' } } },
      { body: { data: [], page: { next: 5 } } },
    ]);
  }
}
