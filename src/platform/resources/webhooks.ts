import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { type ItemResult, parseBody, parseItems } from '../parse.ts';
import {
  CreateWebhookRequest,
  VerifyWebhookRequest,
  VerifyWebhookResponse,
  WebhookSubscription,
} from '../schemas/webhooks.ts';
import { checkBody, fetchOne, type ResourceContext, segment } from './context.ts';

/** Webhook subscriptions (docs/platform.md F20, F32). The answer of subscribe carries the secret once. */
export function webhooksResource(ctx: ResourceContext) {
  return {
    /** F20: 201 with status pending_verification and the signing secret; never log the answer. */
    async subscribe(body: z.input<typeof CreateWebhookRequest>): Promise<WebhookSubscription> {
      checkBody(CreateWebhookRequest, body, 'POST /webhooks');
      return fetchOne(ctx, { method: 'POST', path: '/webhooks', body }, WebhookSubscription);
    },
    /**
     * The business's subscriptions. The live service answers a bare JSON array (docs/platform.md
     * F32); a page envelope `{data: [...]}` is read too. Each subscription is parsed on its own.
     */
    async list(): Promise<ItemResult<WebhookSubscription>[]> {
      const response = await ctx.send({ method: 'GET', path: '/webhooks' });
      const body = response.body as { data?: unknown } | unknown[] | null;
      const items = Array.isArray(body) ? body : Array.isArray(body?.data) ? body.data : body;
      const list = parseBody(z.array(z.unknown()), items, 'GET /webhooks', response.traceId);
      return parseItems(WebhookSubscription, list, 'webhook subscription');
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
