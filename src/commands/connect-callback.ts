import { createServer, type Server } from 'node:http';
import { EXIT } from '../exit-codes.ts';
import { escapeHtml } from '../server/index.ts';
import { CommandError } from './runtime.ts';

/**
 * The loopback listener of `connect` (docs/platform.md F44 allows http://localhost redirect URIs
 * for development): it waits for the browser on the redirect URI's port and path and shows the
 * business one short page. Only a callback carrying this run's `state` reaches `handle` and ends
 * the wait; anything else (a stray request, a forged or old state, a page in the business's
 * browser probing loopback) gets 400 and the listener keeps waiting, so no other process can end
 * the consent before the business answers it. Nothing but the outcome is shown: the code and
 * tokens never reach the page (F45: tokens are not sent to browsers).
 */
export interface CallbackListener {
  /** Settles once this run's callback was handled: its outcome, approved or not. */
  done: Promise<void>;
  /** The state `connect` started: from now on only a callback naming it is handled. */
  expect(state: string): void;
  close(): Promise<void>;
}

const page = (title: string, text: string) =>
  `<!doctype html><meta charset="utf-8"><title>${escapeHtml(title)}</title><p>${escapeHtml(text)}</p>`;

export async function listenForCallback(
  redirectUri: string,
  handle: (query: URLSearchParams) => Promise<void>,
): Promise<CallbackListener> {
  const target = new URL(redirectUri);
  let expected: string | undefined;
  let handled = false;
  let settle: { resolve: () => void; reject: (e: unknown) => void } | undefined;
  const done = new Promise<void>((resolve, reject) => {
    settle = { resolve, reject };
  });
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', target.origin);
    res.setHeader('cache-control', 'no-store');
    if (req.method !== 'GET' || url.pathname !== target.pathname) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not the consent callback\n');
      return;
    }
    const state = url.searchParams.get('state');
    if (handled || expected === undefined || state !== expected) {
      res
        .writeHead(400, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          page(
            'Not this consent',
            'This is not the consent `ledgersync connect` is waiting for: nothing was stored. Approve the page that `connect` printed.',
          ),
        );
      return;
    }
    // This run's state is single use: its one callback ends the wait, whatever it says.
    handled = true;
    handle(url.searchParams).then(
      () => {
        res
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end(page('Connected', 'ledgersync is connected. You can close this tab.'));
        settle?.resolve();
      },
      (error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        res
          .writeHead(400, { 'content-type': 'text/html; charset=utf-8' })
          .end(page('Not connected', message));
        settle?.reject(error);
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(listenFailure(error, target)));
    server.listen(Number(target.port || 80), target.hostname, () => resolve());
  });
  return {
    done,
    expect: (state) => {
      expected = state;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The redirect URI's port cannot be listened on: one line naming the variable (exit 78). */
function listenFailure(error: unknown, target: URL): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  const where = `${target.hostname}:${target.port || 80}`;
  if (code === 'EADDRINUSE') {
    return new CommandError(
      `PLATFORM_REDIRECT_URI (${target.origin}${target.pathname}) needs port ${where}, which another program is listening on: stop it (or an earlier \`connect\`), or register another localhost port for the app and set PLATFORM_REDIRECT_URI to it.`,
      EXIT.config,
    );
  }
  if (code === 'EACCES' || code === 'EADDRNOTAVAIL') {
    return new CommandError(
      `PLATFORM_REDIRECT_URI (${target.origin}${target.pathname}): this process may not listen on ${where} (${code}): register a localhost port above 1024 for the app and set PLATFORM_REDIRECT_URI to it.`,
      EXIT.config,
    );
  }
  return error;
}
