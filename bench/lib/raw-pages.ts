import { DEFAULT_CLIENT } from '@ledgersync/stub';

/** A bearer token from the stub (F1), by plain HTTP: no client, no limiter, nothing in between. */
export async function stubToken(apiUrl: string, scope: string): Promise<string> {
  const basic = Buffer.from(`${DEFAULT_CLIENT.client_id}:${DEFAULT_CLIENT.client_secret}`).toString('base64');
  const response = await fetch(`${apiUrl}/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope }).toString(),
  });
  if (!response.ok) throw new Error(`token: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/**
 * Reads `pages` pages by following page.next (F4) from `firstUrl`, timing each HTTP round trip
 * (request to body read and parsed). Returns the time per page in ms and the objects read.
 */
export async function timePages(
  firstUrl: string,
  token: string,
  pages: number,
): Promise<{ ms: number[]; objects: number }> {
  const ms: number[] = [];
  let objects = 0;
  let url: string | null = firstUrl;
  while (url && ms.length < pages) {
    const started = performance.now();
    const response: Response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    const body = (await response.json()) as { data: unknown[]; page: { next: string | null } };
    ms.push(performance.now() - started);
    if (!response.ok) throw new Error(`GET ${url}: ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
    objects += body.data.length;
    url = body.page.next;
  }
  return { ms, objects };
}
