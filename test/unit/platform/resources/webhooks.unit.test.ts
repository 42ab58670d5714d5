import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isValidWebhookSignature, webhookSignature } from '../../../../src/platform/resources/webhooks.ts';

describe('webhook signatures (docs/platform.md F21)', () => {
  const secret = 'whsec_0123456789abcdef';
  const body = Buffer.from('{"id":"evt_1","type":"transactions.ready_to_sync"}');

  it('F21: lowercase hex HMAC-SHA256 of the raw body', () => {
    expect(webhookSignature(secret, body)).toBe(createHmac('sha256', secret).update(body).digest('hex'));
    expect(webhookSignature(secret, body)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('F21: accepts the right signature (any hex case), refuses others', () => {
    const signature = webhookSignature(secret, body);
    expect(isValidWebhookSignature(secret, body, signature)).toBe(true);
    expect(isValidWebhookSignature(secret, body, signature.toUpperCase())).toBe(true);
    expect(isValidWebhookSignature(secret, Buffer.from(`${body} `), signature)).toBe(false);
    expect(isValidWebhookSignature('other-secret', body, signature)).toBe(false);
    expect(isValidWebhookSignature(secret, body, undefined)).toBe(false);
    expect(isValidWebhookSignature(secret, body, 'not-hex')).toBe(false);
  });
});
