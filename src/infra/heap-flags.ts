/**
 * V8 heap settings for the long-running commands (the worker, a bulk sync). A sync allocates fast
 * and briefly (pages of JSON, result batches), and V8's defaults answer that by growing the heap:
 * a 500,000-object run reached 407 MB of RSS with 68 MB in use. A 16 MB young generation and a
 * capped old one keep the heap near what is in use: 1,000,000 objects peaked at 185 MB, flat from
 * 10 % to 90 % of the run (`npm run bench -- --only 5`, README "Performance"). A 4 MB young
 * generation peaked lower but spent about a tenth more of the worker's CPU on scavenges. The cap
 * leaves room: the heap in use stays under 40 MB in a sync, and a 20,000-account chart mirror fits.
 *
 * The cap also sets how far the old generation may grow past what a full collection leaves: under
 * a cap this small, V8 collects again at about 1.4 times that (34 MB left, collected again at
 * 49 MB; `--trace-gc`). Pages read ahead live long enough to be promoted, so the old generation
 * refilled every half second and its full collections (marked on a second thread, beside
 * PostgreSQL) took about a sixth of the worker's CPU. Twice what is left
 * (`--heap-growing-percent=100`) collects a third as often: the raw pipeline's worker used 15-22 %
 * less CPU and moved 8-14 % more objects a second, for 20-30 MB more RSS (docs/decisions.md,
 * "Heap settings for the long-running commands").
 *
 * Applied by the production image's entry point (Dockerfile), by bin/ledgersync.js's shebang and
 * by the benchmark's worker children. `node bin/ledgersync.js` runs without them (NODE_OPTIONS
 * refuses --heap-growing-percent): run the file itself, or name them after `node`.
 */
export const HEAP_FLAGS = [
  '--max-semi-space-size=16',
  '--max-old-space-size=192',
  '--heap-growing-percent=100',
] as const;
