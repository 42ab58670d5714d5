import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { Logger } from '../../../src/log.ts';
import { SIGNATURE_HEADER, type WebhookEvent } from '../../../src/platform/schemas/webhooks.ts';
import type { Faults } from './faults.ts';

/**
 * Outbound webhooks (docs/platform.md F20, F21): the challenge POST after subscribing, signed event
 * deliveries (`X-Svc-Webhook-Signature` = hex HMAC-SHA256 of the raw body), retries of 5xx, 429
 * and timeouts up to 10 times with exponential backoff and jitter under the same event id, and
 * the disorder faults (duplicates, out-of-order).
 */

export interface Subscription {
  id: string;
  endpoint_url: string;
  event_types: string[];
  status: 'pending_verification' | 'active' | 'disabled';
  secret: string;
  challenge: string;
  created_at: string;
  /** Published reference (docs/platform.md F20, F32): the business and the last change. */
  business_id: string;
  updated_at: string;
}

export interface DeliveryRecord {
  event_id: string;
  type: string;
  subscription_id: string;
  attempt: number;
  at: number;
  status: number | null;
  error: string | null;
}

export interface WebhookSettings {
  retryBaseMs: number;
  maxRetries: number;
  timeoutMs: number;
}

const LOG_CAP = 100_000;

export class WebhookHub {
  readonly subscriptions = new Map<string, Subscription>();
  readonly events: WebhookEvent[] = [];
  readonly deliveries: DeliveryRecord[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private abort = new AbortController();
  private held: Array<() => void> = [];
  private heldTimer: NodeJS.Timeout | null = null;
  private inFlight = 0;

  constructor(
    private readonly deps: {
      now: () => number;
      faults: Faults;
      log: Logger;
      businessId: () => string;
      settings: () => WebhookSettings;
    },
  ) {}

  subscribe(endpointUrl: string, eventTypes: string[], createdAt: string): Subscription {
    const sub: Subscription = {
      id: randomUUID(),
      endpoint_url: endpointUrl,
      event_types: [...new Set(eventTypes)],
      status: 'pending_verification',
      secret: `whsec_${randomBytes(24).toString('hex')}`,
      challenge: randomBytes(16).toString('hex'),
      created_at: createdAt,
      business_id: this.deps.businessId(),
      updated_at: createdAt,
    };
    this.subscriptions.set(sub.id, sub);
    this.send(sub, `challenge-${sub.id}`, 'webhooks.challenge', { challenge: sub.challenge }, 1);
    return sub;
  }

  /** Emits an event to every active subscription of its type; returns the event. */
  /** `at`: when what the event reports happened (default: now), so its created_at matches it. */
  emit(type: string, object: WebhookEvent['object'], at: number = this.deps.now()): WebhookEvent {
    const event: WebhookEvent = {
      id: randomUUID(),
      type,
      created_at: new Date(at).toISOString(),
      business_id: this.deps.businessId(),
      object,
    };
    if (this.events.length >= LOG_CAP) this.events.splice(0, LOG_CAP / 10);
    this.events.push(event);
    for (const sub of this.subscriptions.values()) {
      if (sub.status !== 'active' || !sub.event_types.includes(type)) continue;
      const deliver = () => {
        this.send(sub, event.id, type, event, 1);
        if (this.deps.faults.duplicateDelivery()) this.send(sub, event.id, type, event, 1);
      };
      if (this.deps.faults.config.webhooks.out_of_order) this.hold(deliver);
      else deliver();
    }
    return event;
  }

  /** Out-of-order fault: hold deliveries for a short window, then release them newest first. */
  private hold(deliver: () => void): void {
    this.held.push(deliver);
    if (this.heldTimer) return;
    this.heldTimer = setTimeout(() => {
      this.heldTimer = null;
      const batch = this.held.reverse();
      this.held = [];
      for (const d of batch) d();
    }, this.deps.faults.config.webhooks.out_of_order_window_ms);
  }

  private send(sub: Subscription, eventId: string, type: string, body: unknown, attempt: number): void {
    this.inFlight++;
    void this.attempt(sub, eventId, type, body, attempt).finally(() => this.inFlight--);
  }

  private async attempt(sub: Subscription, eventId: string, type: string, body: unknown, attempt: number) {
    const stopped = this.abort.signal;
    if (stopped.aborted) return;
    const raw = JSON.stringify(body);
    const signature = createHmac('sha256', sub.secret).update(raw).digest('hex');
    let status: number | null = null;
    let error: string | null = null;
    try {
      const res = await fetch(sub.endpoint_url, {
        method: 'POST',
        // No keep-alive: a closed stub leaves no pooled socket open towards the receiver.
        headers: { 'content-type': 'application/json', connection: 'close', [SIGNATURE_HEADER]: signature },
        body: raw,
        signal: AbortSignal.any([stopped, AbortSignal.timeout(this.deps.settings().timeoutMs)]),
      });
      status = res.status;
      await res.arrayBuffer().catch(() => undefined);
    } catch (err) {
      error = (err as Error).name === 'TimeoutError' ? 'timeout' : 'network error';
    }
    if (stopped.aborted) return;
    this.record({
      event_id: eventId,
      type,
      subscription_id: sub.id,
      attempt,
      at: this.deps.now(),
      status,
      error,
    });
    const retryable = status === null || status === 429 || status >= 500;
    const { maxRetries, retryBaseMs } = this.deps.settings();
    if (!retryable || attempt > maxRetries) return;
    // F21: exponential backoff with jitter, same event id.
    const delay = retryBaseMs * 2 ** (attempt - 1) * (0.5 + this.deps.faults.jitter());
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.send(sub, eventId, type, body, attempt + 1);
    }, delay);
    this.timers.add(timer);
  }

  private record(row: DeliveryRecord): void {
    if (this.deliveries.length >= LOG_CAP) this.deliveries.splice(0, LOG_CAP / 10);
    this.deliveries.push(row);
    if (row.status === null || row.status >= 300) {
      this.deps.log.debug(
        { event_id: row.event_id, attempt: row.attempt, status: row.status },
        'webhook delivery failed',
      );
    }
  }

  /** Deliveries still pending (in flight or waiting for a retry). */
  get pending(): number {
    return this.inFlight + this.timers.size + this.held.length;
  }

  /** Stops every delivery and retry; used by reset and close. */
  stop(): void {
    this.abort.abort();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    if (this.heldTimer) clearTimeout(this.heldTimer);
    this.heldTimer = null;
    this.held = [];
    this.abort = new AbortController();
  }

  reset(): void {
    this.stop();
    this.subscriptions.clear();
    this.events.length = 0;
    this.deliveries.length = 0;
  }
}

export function publicSubscription(sub: Subscription, withSecret: boolean) {
  const { secret, challenge: _challenge, ...rest } = sub;
  return withSecret ? { ...rest, secret } : rest;
}
