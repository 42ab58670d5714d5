/**
 * Writes the README's Performance section (between the performance markers, nothing else) from
 * bench/results/latest.json. A quick run is refused unless --allow-quick is given.
 *   npx tsx bench/write-readme.ts [--allow-quick]
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { performanceSection, replaceBetweenMarkers } from './lib/readme-section.ts';
import { type BenchReport, RESULTS_DIR } from './lib/report.ts';
import { REPO_ROOT } from './lib/spawn-ts.ts';

const { values } = parseArgs({
  options: { 'allow-quick': { type: 'boolean', default: false } },
  strict: true,
});
const report = JSON.parse(await readFile(join(RESULTS_DIR, 'latest.json'), 'utf8')) as BenchReport;
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
