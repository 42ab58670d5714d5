import { randomUUID } from 'node:crypto';
import {
  CreateWebhookRequest,
  EventType,
  scopeForEventType,
  VerifyWebhookRequest,
  VerifyWebhookResponse,
  WebhookSubscription,
} from '../../../../src/platform/schemas/webhooks.ts';
import { ApiError, notFound } from '../core/errors.ts';
import type { RouteContext, RouteDef } from '../core/route.ts';
import { MockWebhookEventBody } from '../schemas/requests.ts';
import { publicSubscription } from '../webhooks.ts';
import { body, created, noContent, ok } from './helpers.ts';

/**
 * Webhook subscriptions (docs/platform.md F20): create (secret returned once, then the challenge
 * is POSTed to the endpoint), verify by echoing the challenge, list (a bare array, F32), delete,
 * and a mock event for the active subscriptions of a type (F31). Subscribing, and mocking an
 * event, needs the read scope of each event type's resource (the platform guide's Events).
 */
function eventScopes(ctx: RouteContext): string[] {
  const input = ctx.body as { event_types?: unknown; event_type?: unknown } | undefined;
  const types = Array.isArray(input?.event_types) ? input.event_types : [input?.event_type];
  // Unknown types need no scope: the body validation refuses them (422) after the scope check.
  const known = types.filter((t) => EventType.safeParse(t).success) as string[];
  return [...new Set(known.map(scopeForEventType))];
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
      sub.updated_at = ctx.state.clock.iso();
      return ok({ success: true });
    },
  },
  {
    method: 'GET',
    path: '/webhooks',
    scope: [],
    tag: 'webhooks',
    summary: 'List subscriptions: a bare JSON array (F32; secrets are not shown)',
    handler(ctx) {
      return ok([...ctx.state.webhooks.subscriptions.values()].map((s) => publicSubscription(s, false)));
    },
  },
  {
    method: 'POST',
    path: '/webhooks/mock-webhook-event',
    scope: eventScopes,
    tag: 'webhooks',
    summary:
      'Send a test event to every active subscription of event_type (F31); 201 with the event as delivered',
    request: MockWebhookEventBody,
    handler(ctx) {
      const input = body(ctx, MockWebhookEventBody);
      const type = EventType.safeParse(input.event_type);
      if (!type.success) {
        throw new ApiError('DEVELOPER_7001', `unknown event_type ${input.event_type}`, {
          fields: ['event_type'],
        });
      }
      const object = { ...input.object_metadata, id: input.object_id ?? randomUUID() };
      return created(ctx.state.webhooks.emit(type.data, object));
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
