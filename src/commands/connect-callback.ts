import { createServer, type Server } from 'node:http';
import { escapeHtml } from '../server/index.ts';

/**
 * The loopback listener of `connect` (docs/platform.md F44 allows http://localhost redirect URIs
 * for development): it waits for the browser on the redirect URI's port and path, hands the query
 * to `handle`, and shows the business one short page. Nothing but the outcome is shown: the code
 * and tokens never reach the page (F45: tokens are not sent to browsers).
 */
export interface CallbackListener {
  /** Resolves with what `handle` returned, once a callback on the path was handled. */
  done: Promise<void>;
  close(): Promise<void>;
}

export async function listenForCallback(
  redirectUri: string,
  handle: (query: URLSearchParams) => Promise<void>,
): Promise<CallbackListener> {
  const target = new URL(redirectUri);
  let settle: { resolve: () => void; reject: (e: unknown) => void } | undefined;
  const done = new Promise<void>((resolve, reject) => {
    settle = { resolve, reject };
  });
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', target.origin);
    if (req.method !== 'GET' || url.pathname !== target.pathname) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not the consent callback\n');
      return;
    }
    handle(url.searchParams).then(
      () => {
        res
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end(
            '<!doctype html><title>Connected</title><p>ledgersync is connected. You can close this tab.</p>',
          );
        settle?.resolve();
      },
      (error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        res
          .writeHead(400, { 'content-type': 'text/html; charset=utf-8' })
          .end(`<!doctype html><title>Not connected</title><p>${escapeHtml(message)}</p>`);
        settle?.reject(error);
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(Number(target.port || 80), target.hostname, () => resolve());
  });
  return {
    done,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
