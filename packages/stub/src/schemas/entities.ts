import { z } from 'zod';
import { PageQuery } from '../../../../src/platform/schemas/common.ts';

/**
 * Entities (subsidiaries) as the stub serves them: read-only by API. docs/platform.md F27: the
 * published entity is `{id, entity_name, currency, is_primary, accounts[] (each with usage_type),
 * location_ids[]}` and the platform guide names `name`, `payment_accounts[]` and
 * `bank_accounts[]`; the stub serves both sets on every entity.
 */

const Text = z.string().nullable();

/** Platform guide: a card program account of the entity. */
const PaymentAccount = z.object({
  id: z.string(),
  account_name: z.string(),
  account_number_last_four: Text,
  currency: z.string(),
});

/** Platform guide: `usage_type` BILL_PAY_BANK_ACCOUNT marks the bill-pay funding account. */
export const BankAccount = z.object({
  id: z.string(),
  account_name: z.string(),
  account_number_last_four: Text,
  currency: z.string(),
  usage_type: z.string(),
});
export type BankAccount = z.infer<typeof BankAccount>;

/**
 * Published account of an entity: the ERP account (`external_id`, `external_name`) used for a
 * purpose (`usage_type`), linked to a platform bank account by `bank_account_id` (the same id as
 * the guide's `bank_accounts[].id`).
 */
export const EntityAccount = z.object({
  internal_id: z.string(),
  bank_account_id: Text,
  classification: z.string(),
  created_at: z.string(),
  external_id: z.string(),
  external_name: z.string(),
  usage_type: z.string(),
});
export type EntityAccount = z.infer<typeof EntityAccount>;

export const Entity = z.object({
  id: z.string(),
  /** Published name of the entity. */
  entity_name: z.string(),
  /** Platform guide's name (same value). */
  name: z.string(),
  currency: z.string(),
  is_primary: z.boolean(),
  is_active: z.boolean(),
  accounts: z.array(EntityAccount),
  location_ids: z.array(z.string()),
  payment_accounts: z.array(PaymentAccount),
  bank_accounts: z.array(BankAccount),
});
export type Entity = z.infer<typeof Entity>;

export const ListEntitiesQuery = z.object({
  ...PageQuery.shape,
  entity_id: z.string().optional(),
  hide_inactive: z.enum(['true', 'false']).optional(),
});
export type ListEntitiesQuery = z.infer<typeof ListEntitiesQuery>;
