import type { Command } from 'commander';
import { consentSettingsFrom, isLoopbackRedirect } from '../app/index.ts';
import { EXIT } from '../exit-codes.ts';
import { ConsentFailure, completeConsent, loadGrant, startConsent } from '../platform/index.ts';
import { listenForCallback } from './connect-callback.ts';
import { CommandError, withRuntime } from './runtime.ts';
import { withApp } from './with-app.ts';

const POLL_MS = 1_000;

/**
 * `ledgersync connect`: the business's consent, once (docs/platform.md F44, F45). Prints the
 * consent page to open; the callback comes back to this command when PLATFORM_REDIRECT_URI is a
 * loopback one, else to a running worker's GET /oauth/callback, which this command waits for.
 */
export function registerConnectCommand(program: Command): void {
  program
    .command('connect')
    .description(
      'Authorization Code grant: print the consent page for the business to open, wait for its answer, store the grant (encrypted)',
    )
    .option('--timeout <seconds>', 'give up waiting for the consent after this long', '600')
    .action((options: { timeout: string }) =>
      withRuntime((runtime) =>
        withApp(runtime, async (app) => {
          const settings = consentSettingsFrom(runtime.config, runtime.sql);
          const timeoutMs = Math.max(1, Number(options.timeout) || 600) * 1000;
          const started = Date.now();
          const loopback = isLoopbackRedirect(settings.redirectUri);
          const listener = loopback
            ? await listenForCallback(settings.redirectUri, async (query) => {
                await completeConsent(
                  {
                    ...settings,
                    exchange: (c) => app.platform.exchangeCode(c),
                    revoke: (refreshToken) => app.platform.revokeRefreshToken(refreshToken),
                    log: runtime.log,
                  },
                  {
                    state: query.get('state') ?? undefined,
                    code: query.get('code') ?? undefined,
                    error: query.get('error') ?? undefined,
                  },
                );
              })
            : null;
          try {
            const { url, state } = await startConsent(settings);
            listener?.expect(state);
            process.stdout.write(`Open this page and approve the consent:\n${url}\n`);
            if (listener) await withinMs(listener.done, timeoutMs);
            else await waitForStoredConsent(runtime.sql, settings.clientId, started, timeoutMs);
          } catch (error) {
            // Declined, refused or failed: one line with the next step (README "Exit codes": 1).
            if (error instanceof ConsentFailure) throw new CommandError(error.message);
            throw error;
          } finally {
            await listener?.close();
          }
          process.stdout.write(
            'Connected: the grant is stored; the worker uses it from its next platform call.\n',
          );
          return EXIT.ok;
        }),
      ),
    );
}

function withinMs(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_r, reject) => {
    timer = setTimeout(
      () => reject(new CommandError(`no consent came back within ${ms / 1000} s; run connect again.`)),
      ms,
    );
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** A worker's /oauth/callback stores the consent: wait until a consent newer than `since` is stored. */
async function waitForStoredConsent(
  sql: Parameters<typeof loadGrant>[0],
  clientId: string,
  since: number,
  timeoutMs: number,
): Promise<void> {
  const deadline = since + timeoutMs;
  while (Date.now() < deadline) {
    const grant = await loadGrant(sql, clientId);
    // The database's clock stamps consented_at; a second of slack covers a clock a little ahead.
    if (grant && !grant.revokedAt && grant.consentedAt.getTime() >= since - 1_000) return;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  throw new CommandError(`no consent came back within ${timeoutMs / 1000} s; run connect again.`);
}
