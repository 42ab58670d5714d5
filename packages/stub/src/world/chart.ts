import { createHash } from 'node:crypto';
/**
 * What an accounting connection holds of the customer's chart of accounts (docs/platform.md F8-F13):
 * one table per kind, keyed by remote id (insert-only, F12) and by svc_id (PATCH/DELETE target).
 * Lists keep insertion order; a page cursor is the remote `id` of the last item (F4).
 */
export interface Keyed {
  id: string;
  svc_id: string;
  is_active: boolean;
}

export class ItemTable<T extends Keyed> {
  readonly items: T[] = [];
  private readonly byRemote = new Map<string, number>();
  private readonly bySvc = new Map<string, number>();

  get size(): number {
    return this.items.length;
  }

  get(remoteId: string): T | undefined {
    const at = this.byRemote.get(remoteId);
    return at === undefined ? undefined : this.items[at];
  }

  getBySvc(svcId: string): T | undefined {
    const at = this.bySvc.get(svcId);
    return at === undefined ? undefined : this.items[at];
  }

  insert(item: T): void {
    this.byRemote.set(item.id, this.items.length);
    this.bySvc.set(item.svc_id, this.items.length);
    this.items.push(item);
  }

  /** Items after the one whose remote id is `start`, filtered, at most `limit` (+ whether more). */
  page(start: string | undefined, limit: number, keep: (item: T) => boolean): { items: T[]; more: boolean } {
    let from = 0;
    if (start !== undefined) {
      const at = this.byRemote.get(start);
      from = at === undefined ? this.items.length : at + 1;
    }
    const out: T[] = [];
    for (let i = from; i < this.items.length; i++) {
      const item = this.items[i]!;
      if (!keep(item)) continue;
      if (out.length === limit) return { items: out, more: true };
      out.push(item);
    }
    return { items: out, more: false };
  }
}

/**
 * The records the stub keeps, in the shape it answers with. They are the stub's own types, not
 * the client's read schemas: the client reads tolerantly (docs/platform.md F22), the stub writes
 * one definite shape.
 */
interface ItemTimes {
  created_at: string;
  updated_at?: string;
}

export type GlAccountRecord = Keyed &
  ItemTimes & {
    name: string;
    code: string | null;
    classification: string;
    visibility: string;
    /** docs/platform.md F8 (published reference): the connection, provider and the GL field. */
    accounting_connection_id?: string;
    provider_name?: string | null;
    gl_account_category_info?: { id: string; name: string; svc_id: string };
  };

export type FieldRecord = Keyed &
  ItemTimes & {
    name: string;
    input_type: string;
    display_name: string | null;
    is_splittable: boolean;
    is_required_for: string[];
    accounting_connection_id: string;
    /** Published reference (docs/platform.md F9): the connection's provider. */
    provider_name?: string | null;
  };

export type FieldOptionRecord = Keyed &
  ItemTimes & {
    value: string;
    display_name: string | null;
    code: string | null;
    visibility: string;
    field_id: string;
    field_remote_id: string;
    /** Published reference (docs/platform.md F10): the connection and its provider. */
    accounting_connection_id?: string;
    provider_name?: string | null;
  };

export type VendorRecord = Keyed &
  ItemTimes & {
    name: string;
    code: string | null;
    is_synced: boolean;
    accounting_connection_id: string;
    /** Published reference (docs/platform.md F11): the provider and the vendor field. */
    provider_name?: string | null;
    vendor_category_info?: { id: string; name: string; svc_id: string };
  };

export type TaxRateRecord = Keyed &
  ItemTimes & {
    name: string;
    rate: string;
    accounting_gl_account_id: string;
    accounting_connection_id: string;
  };

export type TaxCodeRecord = Keyed &
  ItemTimes & {
    name: string;
    display_name: string | null;
    accounting_connection_id: string;
  };

/** docs/platform.md F31: each option carries its connection; `tax_rate_ids` are remote ids. */
export type TaxCodeOptionRecord = Keyed &
  ItemTimes & {
    name: string;
    tax_rate_ids: string[];
    accounting_connection_id: string;
  };

export class ConnectionChart {
  readonly glAccounts = new ItemTable<GlAccountRecord>();
  readonly fields = new ItemTable<FieldRecord>();
  /** Options per field svc_id. */
  readonly options = new Map<string, ItemTable<FieldOptionRecord>>();
  /** Every option by svc_id, whatever its field (PATCH/PUT/DELETE /accounting/field-options/{id}). */
  readonly optionsBySvc = new Map<string, FieldOptionRecord>();
  readonly vendors = new ItemTable<VendorRecord>();
  readonly taxRates = new ItemTable<TaxRateRecord>();
  taxCode: TaxCodeRecord | null = null;
  readonly taxCodeOptions = new ItemTable<TaxCodeOptionRecord>();

  optionsOf(fieldSvcId: string): ItemTable<FieldOptionRecord> {
    let table = this.options.get(fieldSvcId);
    if (!table) {
      table = new ItemTable<FieldOptionRecord>();
      this.options.set(fieldSvcId, table);
    }
    return table;
  }

  insertOption(option: FieldOptionRecord): void {
    this.optionsOf(option.field_id).insert(option);
    this.optionsBySvc.set(option.svc_id, option);
  }

  /** Whether any item is inactive: only then must a sync look at an object's codings. */
  hasInactiveItems(): boolean {
    const inactive = (items: Keyed[]) => items.some((i) => !i.is_active);
    if (inactive(this.glAccounts.items) || inactive(this.vendors.items) || inactive(this.fields.items))
      return true;
    if (inactive(this.taxCodeOptions.items)) return true;
    for (const table of this.options.values()) if (inactive(table.items)) return true;
    return false;
  }

  /** Everything uploaded, for GET /__stub/chart. */
  toJson(): Record<string, unknown> {
    return {
      gl_accounts: this.glAccounts.items,
      fields: this.fields.items.map((f) => ({ ...f, options: this.optionsOf(f.svc_id).items })),
      vendors: this.vendors.items,
      tax_rates: this.taxRates.items,
      tax_code: this.taxCode,
      tax_code_options: this.taxCodeOptions.items,
    };
  }

  counts(): Record<string, number> {
    let options = 0;
    for (const table of this.options.values()) options += table.size;
    return {
      gl_accounts: this.glAccounts.size,
      fields: this.fields.size,
      field_options: options,
      vendors: this.vendors.size,
      tax_rates: this.taxRates.size,
      tax_code_options: this.taxCodeOptions.size,
    };
  }
}

/**
 * The svc_id of a connection's built-in field (`Category` for GL accounts, `Merchant` for
 * accounting vendors, docs/platform.md F18): stable, derived from the connection's id.
 */
function builtInFieldSvcId(connectionId: string, field: 'Category' | 'Merchant'): string {
  const hex = createHash('sha256').update(`${field}:${connectionId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The built-in field an item belongs to, as the published answers name it. */
export function builtInFieldInfo(connectionId: string, field: 'Category' | 'Merchant') {
  return { id: field, name: field, svc_id: builtInFieldSvcId(connectionId, field) };
}
