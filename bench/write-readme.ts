/**
 * Writes the README's Performance section (between the performance markers, nothing else) from
 * bench/results/latest.json, the full run's figures; --allow-quick writes it from the quick run's
 * bench/results/quick.json instead.
 *   npx tsx bench/write-readme.ts [--allow-quick]
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { performanceSection, replaceBetweenMarkers } from './lib/readme-section.ts';
import { type BenchReport, LATEST_FILE, QUICK_FILE, RESULTS_DIR } from './lib/report.ts';
import { REPO_ROOT } from './lib/spawn-ts.ts';

const { values } = parseArgs({
  options: { 'allow-quick': { type: 'boolean', default: false } },
  strict: true,
});
const file = values['allow-quick'] ? QUICK_FILE : LATEST_FILE;
const report = JSON.parse(await readFile(join(RESULTS_DIR, file), 'utf8')) as BenchReport;
if (report.mode === 'quick' && !values['allow-quick']) {
  process.stderr.write(
    'bench/results/latest.json is a quick run; run `npm run bench` first (or pass --allow-quick)\n',
  );
  process.exit(2);
}
const readme = join(REPO_ROOT, 'README.md');
await writeFile(readme, replaceBetweenMarkers(await readFile(readme, 'utf8'), performanceSection(report)));
process.stdout.write(
  `README.md: Performance section written from the ${report.mode} run of ${report.startedAt}\n`,
);
