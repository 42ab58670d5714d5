import type { MirrorHarness } from './harness.ts';

/** Platform arrivals as the stub logged them (GET /__stub/effects): the ground truth for call counts. */
export interface Arrival {
  seq: number;
  method: string;
  route: string;
  status: number;
}

export async function arrivalsSince(
  h: MirrorHarness,
  since: number,
): Promise<{ arrivals: Arrival[]; next: number }> {
  const body = await h.control<{ arrivals: Arrival[]; next: { arrivals_since: number } }>(
    'GET',
    `/__stub/effects?include=arrivals&arrivals_since=${since}&limit=100000`,
  );
  return { arrivals: body.arrivals, next: body.next.arrivals_since };
}

export async function arrivalMark(h: MirrorHarness): Promise<number> {
  return (await arrivalsSince(h, Number.MAX_SAFE_INTEGER)).next;
}

const WRITES = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

/** Chart writes (not /token): what "write calls" means in the tests. */
export function writes(arrivals: readonly Arrival[]): Arrival[] {
  return arrivals.filter((a) => WRITES.has(a.method) && a.route.startsWith('/accounting/'));
}

export function count(arrivals: readonly Arrival[], method: string, route: string): number {
  return arrivals.filter((a) => a.method === method && a.route === route).length;
}
