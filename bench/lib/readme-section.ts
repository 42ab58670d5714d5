import { machineLine } from './machine.ts';
import { referenceLine } from './reference-work.ts';
import type { BenchReport } from './report.ts';

export const BEGIN = '<!-- performance:begin -->';
export const END = '<!-- performance:end -->';

/** The README's Performance section for a report: command, machine, table, missed targets. */
export function performanceSection(report: BenchReport): string {
  const day = report.startedAt.slice(0, 10);
  const lines = [
    `Measured with \`${report.command}\` on ${day} (${report.mode} run), on ${machineLine(report.machine)}; ` +
      `load average ${report.machine.loadAverageAtStart} at the start` +
      `${report.referenceWork ? `; ${referenceLine(report.referenceWork)}` : ''}. ${report.caveat}`,
    '',
    report.table,
    '',
  ];
  if (report.missed.length > 0) {
    lines.push('Missed targets and their measured bottleneck:', '');
    for (const line of report.missed) lines.push(`- ${line}`);
    lines.push('');
  }
  lines.push(
    'Every figure and setting is in `bench/results/latest.json` (CPU profiles too with `npm run bench -- --profile`). To measure again: ' +
      '`npm run bench` (or `npm run bench -- --quick`, about 2 minutes, written to the untracked `bench/results/quick.json`), then `npx tsx bench/write-readme.ts`.',
  );
  return lines.join('\n');
}

/** Replaces what lies between the markers; throws when they are missing or out of order. */
export function replaceBetweenMarkers(text: string, section: string): string {
  const begin = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (begin < 0 || end < 0 || end < begin) throw new Error(`README needs ${BEGIN} ... ${END}, in that order`);
  return `${text.slice(0, begin + BEGIN.length)}\n${section}\n${text.slice(end)}`;
}
