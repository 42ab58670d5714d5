import { z } from 'zod';
import { CurrencyCode, SvcId } from './common.ts';

/** Entities (subsidiaries): read-only by API (spec 001 "Accounting connection"). */

export const PaymentAccount = z.object({
  id: z.string(),
  account_name: z.string(),
  account_number_last_four: z.string().nullable(),
  currency: CurrencyCode,
});
export type PaymentAccount = z.infer<typeof PaymentAccount>;

/** `usage_type` BILL_PAY_BANK_ACCOUNT marks the bill-pay funding account (spec 001). */
export const BankAccount = z.object({
  id: z.string(),
  account_name: z.string(),
  account_number_last_four: z.string().nullable(),
  currency: CurrencyCode.optional(),
  usage_type: z.string().nullable(),
});
export type BankAccount = z.infer<typeof BankAccount>;

export const Entity = z.object({
  id: SvcId,
  name: z.string(),
  currency: CurrencyCode,
  is_primary: z.boolean().optional(),
  is_active: z.boolean().optional(),
  payment_accounts: z.array(PaymentAccount),
  bank_accounts: z.array(BankAccount),
});
export type Entity = z.infer<typeof Entity>;

export const ListEntitiesQuery = z.object({
  start: z.string().min(1).optional(),
  page_size: z.coerce.number().int().min(2).max(100).default(20),
  entity_id: z.string().optional(),
  hide_inactive: z.enum(['true', 'false']).optional(),
});
export type ListEntitiesQuery = z.infer<typeof ListEntitiesQuery>;
