import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { Logger } from '../../../src/log.ts';
import { SIGNATURE_HEADER, type WebhookEvent } from '../../../src/platform/schemas/webhooks.ts';
import type { Faults } from './faults.ts';

/**
 * Outbound webhooks (docs/platform.md F20, F21): the challenge POST after subscribing, signed event
 * deliveries (`X-Svc-Webhook-Signature` = hex HMAC-SHA256 of the raw body), retries of 5xx, 429
 * and timeouts up to 10 times with exponential backoff and jitter under the same event id, and
 * the disorder faults (duplicates, out-of-order).
 *
 * Deliveries are a bounded stream: each waits in a queue (a few hundred bytes) and at most
 * `maxInFlight` requests are open at once, so a burst of any size the control routes accept
 * costs memory in proportion to its events, not to open sockets. Sending every delivery at once
 * took 568 MB of RSS and 18 s to answer a request for 6,000 objects, and ran the process out of
 * file descriptors for 20,000 (`ledgersync try` died of it, and its seeded world with it).
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
  /** Deliveries sent at once; the others wait in the queue. */
  maxInFlight: number;
}

/** One POST to make: an event (or a challenge) for a subscription, and which attempt it is. */
interface Delivery {
  sub: Subscription;
  eventId: string;
  type: string;
  body: unknown;
  attempt: number;
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
  /** Challenges go before events: a registration waits for its challenge (F20). */
  private readonly urgent = new DeliveryQueue();
  private readonly queue = new DeliveryQueue();

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
    this.urgent.push({
      sub,
      eventId: `challenge-${sub.id}`,
      type: 'webhooks.challenge',
      body: { challenge: sub.challenge },
      attempt: 1,
    });
    this.pump();
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
    this.queue.push({ sub, eventId, type, body, attempt });
    this.pump();
  }

  /** Starts queued deliveries while fewer than `maxInFlight` are open. */
  private pump(): void {
    const max = Math.max(1, this.deps.settings().maxInFlight);
    while (this.inFlight < max) {
      const next = this.urgent.shift() ?? this.queue.shift();
      if (!next) return;
      // A subscription deleted (or forgotten) since is not delivered to any more.
      if (this.subscriptions.get(next.sub.id) !== next.sub) continue;
      this.inFlight++;
      void this.attempt(next).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
  }

  private async attempt({ sub, eventId, type, body, attempt }: Delivery) {
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

  /** Deliveries still pending (in flight, queued, or waiting for a retry). */
  get pending(): number {
    return this.inFlight + this.urgent.length + this.queue.length + this.timers.size + this.held.length;
  }

  /** Deliveries open right now (at most `maxInFlight`). */
  get sending(): number {
    return this.inFlight;
  }

  /** Stops every delivery and retry; used by reset and close. */
  stop(): void {
    this.abort.abort();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    if (this.heldTimer) clearTimeout(this.heldTimer);
    this.heldTimer = null;
    this.held = [];
    this.urgent.clear();
    this.queue.clear();
    this.abort = new AbortController();
  }

  /** Forgets every subscription, as a platform that lost its state (a restarted stub) does. */
  forgetSubscriptions(): number {
    const count = this.subscriptions.size;
    this.subscriptions.clear();
    return count;
  }

  reset(): void {
    this.stop();
    this.subscriptions.clear();
    this.events.length = 0;
    this.deliveries.length = 0;
  }
}

/** A FIFO whose shift is O(1): the consumed head is dropped in chunks, not element by element. */
class DeliveryQueue {
  private items: Delivery[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(item: Delivery): void {
    this.items.push(item);
  }

  shift(): Delivery | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head]!;
    this.items[this.head] = undefined as unknown as Delivery;
    this.head++;
    if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  clear(): void {
    this.items = [];
    this.head = 0;
  }
}

export function publicSubscription(sub: Subscription, withSecret: boolean) {
  const { secret, challenge: _challenge, ...rest } = sub;
  return withSecret ? { ...rest, secret } : rest;
}
