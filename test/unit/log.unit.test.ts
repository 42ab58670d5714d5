import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.ts';
import { scrubString } from '../../src/secrets.ts';

function captured() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { log: createLogger({ destination, level: 'trace' }), text: () => lines.join('') };
}

const TOKEN = 'svc_business_tok_9f8e7d6c5b4a3210abcdef';
const SECRET = 'cs_live_very_secret_value_123';

describe('log redaction', () => {
  it('masks a bearer token inside a message string', () => {
    const { log, text } = captured();
    log.info(`calling with Authorization: Bearer ${TOKEN}`);
    expect(text()).not.toContain(TOKEN);
    expect(text()).toContain('Bearer [redacted]');
  });

  it('masks secret-named keys at any depth and Authorization headers', () => {
    const { log, text } = captured();
    log.info(
      {
        client_secret: SECRET,
        req: { headers: { authorization: `Basic ${Buffer.from(`id:${SECRET}`).toString('base64')}` } },
      },
      'token call',
    );
    log.info({ config: { webhookSecret: SECRET, nested: { access_token: TOKEN } } }, 'config');
    expect(text()).not.toContain(SECRET);
    expect(text()).not.toContain(TOKEN);
    expect(text()).not.toContain(Buffer.from(`id:${SECRET}`).toString('base64'));
  });

  it('masks a token that appears in an error message or a URL query', () => {
    const { log, text } = captured();
    log.error({ err: new Error(`request failed for token ${TOKEN}`) }, 'failed');
    log.warn({ url: `https://x.test/cb?client_secret=${SECRET}&x=1` }, 'odd url');
    expect(text()).not.toContain(TOKEN);
    expect(text()).not.toContain(SECRET);
    expect(text()).toContain('client_secret=[redacted]&x=1');
  });

  it('masks card numbers but leaves timestamps and amounts readable', () => {
    expect(scrubString('card 4242 4242 4242 4242 charged')).toBe('card [card-redacted] charged');
    expect(scrubString('job cron:1795268465949 amount 123456')).toBe('job cron:1795268465949 amount 123456');
  });
});
