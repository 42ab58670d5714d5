import {
  CreateWebhookRequest,
  scopeForEventType,
  VerifyWebhookRequest,
  VerifyWebhookResponse,
  WebhookSubscription,
} from '../../platform/schemas/webhooks.ts';
import { ApiError, notFound } from '../core/errors.ts';
import type { RouteContext, RouteDef } from '../core/router.ts';
import { publicSubscription } from '../webhooks.ts';
import { body, created, noContent, ok, pageReply } from './helpers.ts';

/**
 * Webhook subscriptions (PLATFORM-FACTS F20): create (secret returned once, then the challenge
 * is POSTed to the endpoint), verify by echoing the challenge, list, delete. A subscription needs
 * the read scope of each event type's resource (spec 000 Events).
 */
function eventScopes(ctx: RouteContext): string[] {
  const types = (ctx.body as { event_types?: unknown } | undefined)?.event_types;
  if (!Array.isArray(types)) return [];
  return [...new Set(types.filter((t): t is string => typeof t === 'string').map(scopeForEventType))];
}

export const webhookRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/webhooks',
    scope: eventScopes,
    tag: 'webhooks',
    summary: 'Subscribe (F20); the service then POSTs {challenge} to the endpoint',
    request: CreateWebhookRequest,
    response: WebhookSubscription,
    status: 201,
    handler(ctx) {
      const input = body(ctx, CreateWebhookRequest);
      const sub = ctx.state.webhooks.subscribe(input.endpoint_url, input.event_types, ctx.state.clock.iso());
      return created(publicSubscription(sub, true));
    },
  },
  {
    method: 'POST',
    path: '/webhooks/:id/verify',
    scope: [],
    tag: 'webhooks',
    summary: 'Echo the challenge; the subscription becomes active (F20)',
    request: VerifyWebhookRequest,
    response: VerifyWebhookResponse,
    handler(ctx) {
      const input = body(ctx, VerifyWebhookRequest);
      const sub = ctx.state.webhooks.subscriptions.get(ctx.params.id!);
      if (!sub) throw notFound('webhook subscription', ctx.params.id);
      if (input.challenge !== sub.challenge) {
        throw new ApiError('DEVELOPER_7001', 'challenge does not match', { fields: ['challenge'] });
      }
      sub.status = 'active';
      return ok({ success: true });
    },
  },
  {
    method: 'GET',
    path: '/webhooks',
    scope: [],
    tag: 'webhooks',
    summary: 'List subscriptions (secrets are not shown)',
    handler(ctx) {
      const data = [...ctx.state.webhooks.subscriptions.values()].map((s) => publicSubscription(s, false));
      return pageReply(ctx, data, null);
    },
  },
  {
    method: 'GET',
    path: '/webhooks/:id',
    scope: [],
    tag: 'webhooks',
    summary: 'One subscription',
    handler(ctx) {
      const sub = ctx.state.webhooks.subscriptions.get(ctx.params.id!);
      if (!sub) throw notFound('webhook subscription', ctx.params.id);
      return ok(publicSubscription(sub, false));
    },
  },
  {
    method: 'DELETE',
    path: '/webhooks/:id',
    scope: [],
    tag: 'webhooks',
    summary: 'Delete a subscription (204)',
    handler(ctx) {
      if (!ctx.state.webhooks.subscriptions.delete(ctx.params.id!))
        throw notFound('webhook subscription', ctx.params.id);
      return noContent();
    },
  },
];
