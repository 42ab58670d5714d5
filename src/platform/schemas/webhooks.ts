import { z } from 'zod';
import { SvcId, Timestamp } from './common.ts';

/** Webhook subscriptions and deliveries (docs/platform.md F20, F21, G12). */

/** F21: lowercase hex HMAC-SHA256(secret, raw body bytes). */
export const SIGNATURE_HEADER = 'x-svc-webhook-signature';

/**
 * Every event type the platform names (docs/platform.md G12). The stub emits the accounting-sync
 * ones; subscribing to the others is accepted.
 */
export const EventType = z.enum([
  'applications.status_updated',
  'transactions.cleared',
  'transactions.ready_to_sync',
  'reimbursements.ready_to_sync',
  'bills.ready_to_sync',
  'transactions.sync_requested',
  'reimbursements.sync_requested',
  'bills.created',
  'bills.approved',
  'bills.paid',
  'bills.rejected',
  'bills.archived',
  'reimbursements.batch_payment_reimbursed',
  'item_receipts.created',
  'purchase_orders.archived',
  'payments.updated',
  'transactions.declined',
  'users.invite_accepted',
  'unified_requests.created',
  'unified_requests.modified',
  'unified_requests.node_advanced',
  'unified_requests.override_approved',
  'unified_requests.updated',
  'spend_requests.comment_created',
  'transactions.all_requirements_met_and_approved_changed',
  'transactions.body_coding_updated',
  'transactions.receipt_added',
]);

export type EventType = z.infer<typeof EventType>;

export const CreateWebhookRequest = z.strictObject({
  endpoint_url: z.url(),
  event_types: z.array(EventType).min(1),
});
export type CreateWebhookRequest = z.infer<typeof CreateWebhookRequest>;

/** F20: the secret is returned once, on create. Read tolerantly (docs/platform.md F22). */
export const WebhookSubscription = z.object({
  id: SvcId,
  endpoint_url: z.string().nullish(),
  event_types: z
    .array(z.string())
    .nullish()
    .transform((types) => types ?? []),
  status: z.string().nullish(),
  secret: z.string().nullish(),
  created_at: Timestamp.nullish(),
});
export type WebhookSubscription = z.infer<typeof WebhookSubscription>;

/** F20: the service POSTs this to the endpoint right after create. */
export const ChallengeDelivery = z.object({ challenge: z.string() });
export type ChallengeDelivery = z.infer<typeof ChallengeDelivery>;

export const VerifyWebhookRequest = z.strictObject({ challenge: z.string().min(1) });
export type VerifyWebhookRequest = z.infer<typeof VerifyWebhookRequest>;

export const VerifyWebhookResponse = z.object({ success: z.boolean() });
export type VerifyWebhookResponse = z.infer<typeof VerifyWebhookResponse>;

/** F21 envelope; sync-button events carry `object.sync_request_id`. */
export const WebhookEvent = z.object({
  id: z.string(),
  type: z.string(),
  created_at: Timestamp,
  business_id: z.string().nullish(),
  object: z.looseObject({
    id: z.string(),
    sync_request_id: z.string().optional(),
  }),
});
export type WebhookEvent = z.infer<typeof WebhookEvent>;

/** Resource read scope a subscription to each event type needs (docs/platform.md G12). */
export function scopeForEventType(type: string): string {
  const resource = type.split('.')[0] ?? '';
  return `${resource}:read`;
}
