import { createHmac, timingSafeEqual } from 'node:crypto';
import type { z } from 'zod';
import {
  CreateWebhookRequest,
  VerifyWebhookRequest,
  VerifyWebhookResponse,
  WebhookSubscription,
} from '../schemas/webhooks.ts';
import { checkBody, fetchOne, type ResourceContext, segment } from './context.ts';

/** Webhook subscriptions (PLATFORM-FACTS F20). The answer of subscribe carries the secret once. */
export function webhooksResource(ctx: ResourceContext) {
  return {
    /** F20: 201 with status pending_verification and the signing secret; never log the answer. */
    async subscribe(body: z.input<typeof CreateWebhookRequest>): Promise<WebhookSubscription> {
      checkBody(CreateWebhookRequest, body, 'POST /webhooks');
      return fetchOne(ctx, { method: 'POST', path: '/webhooks', body }, WebhookSubscription);
    },
    /** F20: echoes the challenge the platform POSTed to the endpoint; the subscription goes active. */
    async verify(subscriptionId: string, challenge: string): Promise<VerifyWebhookResponse> {
      const path = `/webhooks/${segment(subscriptionId)}/verify`;
      const body = { challenge };
      checkBody(VerifyWebhookRequest, body, `POST ${path}`);
      return fetchOne(ctx, { method: 'POST', path, body }, VerifyWebhookResponse);
    },
  };
}

export type WebhooksResource = ReturnType<typeof webhooksResource>;

/** F21: lowercase hex HMAC-SHA256(secret, raw body bytes). */
export function webhookSignature(secret: string, rawBody: Buffer | string): string {
  return createHmac('sha256', secret).update(rawBody).digest('hex');
}

/** F21: checks X-Svc-Webhook-Signature in constant time. */
export function isValidWebhookSignature(
  secret: string,
  rawBody: Buffer | string,
  header: string | undefined,
): boolean {
  if (!header || !/^[0-9a-fA-F]{64}$/.test(header.trim())) return false;
  const expected = Buffer.from(webhookSignature(secret, rawBody), 'hex');
  return timingSafeEqual(expected, Buffer.from(header.trim().toLowerCase(), 'hex'));
}
