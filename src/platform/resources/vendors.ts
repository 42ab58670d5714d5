import type { z } from 'zod';
import type { Listing } from '../pagination.ts';
import {
  type ListPlatformVendorsQuery,
  PatchPlatformVendorRequest,
  PlatformVendor,
} from '../schemas/vendors.ts';
import { checkBody, type Filters, fetchOne, listing, type ResourceContext, segment } from './context.ts';

/** Platform vendors (docs/platform.md G19): linking one to its accounting vendor. */
export function vendorsResource(ctx: ResourceContext) {
  /** PATCH /vendors/{id}; `accounting_vendor_remote_id` links the vendor to the ERP vendor. */
  const patch = async (
    vendorId: string,
    body: z.input<typeof PatchPlatformVendorRequest>,
  ): Promise<PlatformVendor> => {
    const path = `/vendors/${segment(vendorId)}`;
    checkBody(PatchPlatformVendorRequest, body, `PATCH ${path}`);
    return fetchOne(ctx, { method: 'PATCH', path, body }, PlatformVendor);
  };
  return {
    patch,
    /** Links the platform vendor to the accounting vendor with this ERP remote id. */
    linkAccountingVendor(vendorId: string, accountingVendorRemoteId: string): Promise<PlatformVendor> {
      return patch(vendorId, { accounting_vendor_remote_id: accountingVendorRemoteId });
    },
    list(filters: Filters<z.input<typeof ListPlatformVendorsQuery>> = {}): Listing<PlatformVendor> {
      return listing(ctx, '/vendors', filters, PlatformVendor, 'vendor');
    },
    get(vendorId: string): Promise<PlatformVendor> {
      return fetchOne(ctx, { method: 'GET', path: `/vendors/${segment(vendorId)}` }, PlatformVendor);
    },
  };
}
