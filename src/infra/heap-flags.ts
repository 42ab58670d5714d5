/**
 * V8 heap settings for the long-running commands (the worker, a bulk sync). A sync allocates fast
 * and briefly (pages of JSON, result batches), and V8's defaults answer that by growing the heap:
 * a 500,000-object run reached 407 MB of RSS with 68 MB in use. A 16 MB young generation and a
 * capped old one keep the heap near what is in use: 1,000,000 objects peaked at 185 MB, flat from
 * 10 % to 90 % of the run (`npm run bench -- --only 5`, README "Performance"). A 4 MB young
 * generation peaked lower but spent about a tenth more of the worker's CPU on scavenges. The cap
 * leaves room: the heap in use stays under 40 MB in a sync, and a 20,000-account chart mirror fits.
 *
 * Applied by the production image's entry point (Dockerfile), by bin/ledgersync.js's shebang and
 * by the benchmark's worker children; a checkout run as `node bin/ledgersync.js` can add them with
 * NODE_OPTIONS.
 */
export const HEAP_FLAGS = ['--max-semi-space-size=16', '--max-old-space-size=192'] as const;
