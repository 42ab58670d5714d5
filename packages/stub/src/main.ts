import { parseArgs } from 'node:util';
import { startStub } from './index.ts';

/**
 * Separate-process entry for benchmarks: `tsx src/stub/main.ts --port 0 --rate-max 200
 * --rate-window-ms 10000 --latency-ms 0 [--published-answers]`. Prints one JSON line `{"url", "apiUrl"}` once
 * listening; stops on SIGINT/SIGTERM. `--rate-max 0` turns the rate limit off.
 */
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
    'rate-max': { type: 'string' },
    'rate-window-ms': { type: 'string' },
    'latency-ms': { type: 'string' },
    /** docs/platform.md F33: POST /accounting/syncs answers `{sync_id}` only. */
    'published-answers': { type: 'boolean', default: false },
  },
  strict: true,
});

function num(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) {
    process.stderr.write(`--${name} must be a non-negative number\n`);
    process.exit(2);
  }
  return n;
}

const rateMax = num(values['rate-max'], 'rate-max');
const rateWindow = num(values['rate-window-ms'], 'rate-window-ms');
const stub = await startStub({
  port: num(values.port, 'port') ?? 0,
  host: values.host,
  rateLimit: rateMax === 0 ? false : { max: rateMax ?? 200, windowMs: rateWindow ?? 10_000 },
  latencyMs: num(values['latency-ms'], 'latency-ms') ?? 0,
  config: { publishedAnswers: values['published-answers'] },
});
const stop = () => {
  void stub.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
process.stdout.write(`${JSON.stringify({ url: stub.url, apiUrl: stub.apiUrl })}\n`);
