import { z } from 'zod';
import { SvcId, Timestamp } from './common.ts';

/** Platform vendors (docs/platform.md G19): the link to an accounting vendor. */

export const PlatformVendor = z.object({
  id: SvcId,
  name: z.string(),
  accounting_vendor_remote_id: z.string().nullable().optional(),
  default_entity_id: z.string().nullable().optional(),
  approval_status: z.string().optional(),
  external_vendor_id: z.string().nullable().optional(),
  created_at: Timestamp.optional(),
  updated_at: Timestamp.optional(),
});
export type PlatformVendor = z.infer<typeof PlatformVendor>;

/** PATCH /vendors/{vendor_id}: `accounting_vendor_remote_id` links the vendor (docs/platform.md G19). */
export const PatchPlatformVendorRequest = z.strictObject({
  accounting_vendor_remote_id: z.string().min(1).nullable().optional(),
  name: z.string().min(1).optional(),
  external_vendor_id: z.string().nullable().optional(),
  default_entity_id: z.string().nullable().optional(),
});
export type PatchPlatformVendorRequest = z.infer<typeof PatchPlatformVendorRequest>;

export const ListPlatformVendorsQuery = z.object({
  start: z.string().min(1).optional(),
  page_size: z.coerce.number().int().min(2).max(100).default(20),
  external_vendor_id: z.string().optional(),
});
export type ListPlatformVendorsQuery = z.infer<typeof ListPlatformVendorsQuery>;
