import { z } from 'zod';
import { SvcId } from './common.ts';

/**
 * Entities (subsidiaries), read-only by API. Two shapes are in use (docs/platform.md F27): the
 * platform guide's `{id, name, currency, payment_accounts[], bank_accounts[]}` and the published
 * `{id, entity_name, currency, is_primary, accounts[] (each with usage_type), location_ids[]}`.
 * The reader takes either and gives one view: the worker needs the id, a name and the currency.
 */

const text = z.string().nullish();

/** `usage_type` BILL_PAY_BANK_ACCOUNT marks the bill-pay funding account. */
const Account = z.object({ id: text, usage_type: text, currency: text });

export const Entity = z
  .object({
    id: SvcId,
    name: text,
    entity_name: text,
    currency: text,
    is_primary: z.boolean().nullish(),
    accounts: z.array(Account).nullish(),
    payment_accounts: z.array(Account).nullish(),
    bank_accounts: z.array(Account).nullish(),
  })
  .transform((e) => ({
    id: e.id,
    /** The published `entity_name`, or the guide's `name`; the id when neither is given. */
    name: e.name ?? e.entity_name ?? e.id,
    /**
     * The entity's currency; the guide's shape may name it only on its payment accounts. Null
     * when neither says (books cannot be opened for it: the caller reports it).
     */
    currency:
      (e.currency ?? e.payment_accounts?.find((a) => a.currency)?.currency ?? null)?.toUpperCase() ?? null,
    is_primary: e.is_primary ?? false,
    /** Accounts of either shape (`accounts[]` or `bank_accounts[]`), with their usage type. */
    accounts: [...(e.accounts ?? []), ...(e.bank_accounts ?? [])],
    payment_accounts: e.payment_accounts ?? [],
  }));
export type Entity = z.output<typeof Entity>;

export const ListEntitiesQuery = z.object({
  start: z.string().min(1).optional(),
  page_size: z.coerce.number().int().min(2).max(100).default(20),
  entity_id: z.string().optional(),
  hide_inactive: z.enum(['true', 'false']).optional(),
});
export type ListEntitiesQuery = z.infer<typeof ListEntitiesQuery>;
