import type { z } from 'zod';
import type { Listing } from '../pagination.ts';
import {
  AccountingVendor,
  CreateFieldRequest,
  Field,
  FieldOption,
  GlAccount,
  type ListAccountingVendorsQuery,
  type ListFieldOptionsQuery,
  type ListFieldsQuery,
  type ListGlAccountsQuery,
  PatchAccountingVendorRequest,
  PatchFieldOptionRequest,
  PatchFieldRequest,
  PatchGlAccountRequest,
  PutFieldOptionRequest,
  UploadFieldOptionsRequest,
  UploadGlAccountsRequest,
  UploadVendorsRequest,
} from '../schemas/accounting.ts';
import { taxResource } from './chart-of-accounts-tax.ts';
import {
  type ConnectionTarget,
  checkBody,
  createOne,
  type Filters,
  fetchOne,
  listing,
  type ResourceContext,
  segment,
  type Uploaded,
  upload,
  withTarget,
} from './context.ts';

type In<S extends z.ZodType> = z.input<S>;

/**
 * Chart-of-accounts uploads and their upkeep (docs/platform.md F8–F13, F29–F31).
 * Uploads are insert-only and all-or-nothing, 1..500 items (F12: an existing remote id is a
 * DuplicateUploadError); changes go by svc_id through PATCH / PUT, removal through DELETE.
 * Every call takes an optional accounting_connection_id, to work on an inactive connection during
 * a migration: writes carry it in the JSON body (docs/platform.md F29), lists in the query.
 */
export function chartOfAccountsResource(ctx: ResourceContext) {
  const patch = <T>(path: string, body: object, schema: z.ZodType<T>, target?: ConnectionTarget) =>
    fetchOne(ctx, { method: 'PATCH', path, body: withTarget(body, target) }, schema);
  const remove = async (path: string, target?: ConnectionTarget): Promise<void> => {
    await ctx.send({ method: 'DELETE', path, body: withTarget({}, target) });
  };

  return {
    // ------------------------------------------------------------------ GL accounts (F8)
    async uploadGlAccounts(body: In<typeof UploadGlAccountsRequest>): Promise<Uploaded<GlAccount>> {
      checkBody(UploadGlAccountsRequest, body, 'POST /accounting/accounts');
      return upload(ctx, '/accounting/accounts', body, 'gl_accounts', GlAccount, 'GL account');
    },
    listGlAccounts(filters: Filters<In<typeof ListGlAccountsQuery>> = {}): Listing<GlAccount> {
      return listing(ctx, '/accounting/accounts', filters, GlAccount, 'GL account');
    },
    async patchGlAccount(svcId: string, body: In<typeof PatchGlAccountRequest>, target?: ConnectionTarget) {
      const path = `/accounting/accounts/${segment(svcId)}`;
      checkBody(PatchGlAccountRequest, withTarget(body, target), `PATCH ${path}`);
      return patch(path, body, GlAccount, target);
    },
    deleteGlAccount(svcId: string, target?: ConnectionTarget): Promise<void> {
      return remove(`/accounting/accounts/${segment(svcId)}`, target);
    },

    // ------------------------------------------------------------------ custom fields (F9)
    /**
     * One field per call; posting an existing id returns (and reactivates) it. Null when the
     * answer does not carry the field (F41): read the fields again to learn its svc_id.
     */
    async createField(body: In<typeof CreateFieldRequest>): Promise<Field | null> {
      checkBody(CreateFieldRequest, body, 'POST /accounting/fields');
      return createOne(ctx, { method: 'POST', path: '/accounting/fields', body }, Field);
    },
    listFields(filters: Filters<In<typeof ListFieldsQuery>> = {}): Listing<Field> {
      return listing(ctx, '/accounting/fields', filters, Field, 'field');
    },
    async patchField(
      svcId: string,
      body: In<typeof PatchFieldRequest>,
      target?: ConnectionTarget,
    ): Promise<Field> {
      const path = `/accounting/fields/${segment(svcId)}`;
      checkBody(PatchFieldRequest, withTarget(body, target), `PATCH ${path}`);
      return patch(path, body, Field, target);
    },
    deleteField(svcId: string, target?: ConnectionTarget): Promise<void> {
      return remove(`/accounting/fields/${segment(svcId)}`, target);
    },

    // ------------------------------------------------------------------ field options (F10)
    /** `field_id` is the field's svc_id. */
    async uploadFieldOptions(body: In<typeof UploadFieldOptionsRequest>): Promise<Uploaded<FieldOption>> {
      checkBody(UploadFieldOptionsRequest, body, 'POST /accounting/field-options');
      return upload(ctx, '/accounting/field-options', body, 'options', FieldOption, 'field option');
    },
    /** F10: exactly one of field_id (svc_id) or field_remote_id. */
    listFieldOptions(
      filters: Filters<In<typeof ListFieldOptionsQuery>> &
        ({ field_id: string; field_remote_id?: never } | { field_remote_id: string; field_id?: never }),
    ): Listing<FieldOption> {
      return listing(ctx, '/accounting/field-options', filters, FieldOption, 'field option');
    },
    async patchFieldOption(
      svcId: string,
      body: In<typeof PatchFieldOptionRequest>,
      target?: ConnectionTarget,
    ) {
      const path = `/accounting/field-options/${segment(svcId)}`;
      checkBody(PatchFieldOptionRequest, withTarget(body, target), `PATCH ${path}`);
      return patch(path, body, FieldOption, target);
    },
    async putFieldOption(
      svcId: string,
      body: In<typeof PutFieldOptionRequest>,
      target?: ConnectionTarget,
    ): Promise<FieldOption> {
      const path = `/accounting/field-options/${segment(svcId)}`;
      checkBody(PutFieldOptionRequest, withTarget(body, target), `PUT ${path}`);
      return fetchOne(ctx, { method: 'PUT', path, body: withTarget(body, target) }, FieldOption);
    },
    deleteFieldOption(svcId: string, target?: ConnectionTarget): Promise<void> {
      return remove(`/accounting/field-options/${segment(svcId)}`, target);
    },

    // ------------------------------------------------------------------ accounting vendors (F11)
    async uploadVendors(body: In<typeof UploadVendorsRequest>): Promise<Uploaded<AccountingVendor>> {
      checkBody(UploadVendorsRequest, body, 'POST /accounting/vendors');
      return upload(ctx, '/accounting/vendors', body, 'vendors', AccountingVendor, 'accounting vendor');
    },
    listVendors(filters: Filters<In<typeof ListAccountingVendorsQuery>> = {}): Listing<AccountingVendor> {
      return listing(ctx, '/accounting/vendors', filters, AccountingVendor, 'accounting vendor');
    },
    async patchVendor(
      svcId: string,
      body: In<typeof PatchAccountingVendorRequest>,
      target?: ConnectionTarget,
    ) {
      const path = `/accounting/vendors/${segment(svcId)}`;
      checkBody(PatchAccountingVendorRequest, withTarget(body, target), `PATCH ${path}`);
      return patch(path, body, AccountingVendor, target);
    },
    deleteVendor(svcId: string, target?: ConnectionTarget): Promise<void> {
      return remove(`/accounting/vendors/${segment(svcId)}`, target);
    },

    // ------------------------------------------------------------------ tax (F13)
    ...taxResource(ctx),
  };
}
