import { firstJsonLine, type TsChild } from './spawn-ts.ts';

export interface StubRule {
  /** 0 turns the rate limit off. */
  rateMax: number;
  rateWindowMs: number;
  latencyMs: number;
}

export interface StubProcess {
  readonly url: string;
  readonly apiUrl: string;
  readonly child: TsChild;
  /** Calls a /__stub control route (never rate limited). */
  control<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  stop(): Promise<void>;
}

/** The platform stub as a separate process (packages/stub/src/main.ts), as the benchmarks require. */
export async function startStubProcess(rule: StubRule): Promise<StubProcess> {
  const { child, ready } = firstJsonLine<{ url: string; apiUrl: string }>('packages/stub/src/main.ts', {
    args: [
      '--port',
      '0',
      '--rate-max',
      String(rule.rateMax),
      '--rate-window-ms',
      String(rule.rateWindowMs),
      '--latency-ms',
      String(rule.latencyMs),
    ],
  });
  let started: { url: string; apiUrl: string };
  try {
    started = await ready;
  } catch (error) {
    await child.stop();
    throw error;
  }
  const control = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${started.url}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`stub ${method} ${path}: ${response.status} ${text.slice(0, 500)}`);
    return (text ? JSON.parse(text) : null) as T;
  };
  return { url: started.url, apiUrl: started.apiUrl, child, control, stop: () => child.stop() };
}
