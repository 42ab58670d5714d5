import type { ScenarioResult, TargetCheck } from './result.ts';

/** A Markdown table, columns padded so it also reads as plain text. */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
  const all = [header, ...rows].map((row) => header.map((_, i) => cell(row[i] ?? '')));
  const widths = header.map((_, i) => Math.max(3, ...all.map((row) => row[i]!.length)));
  const line = (row: readonly string[]) => `| ${row.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  const rule = `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`;
  return [line(all[0]!), rule, ...all.slice(1).map(line)].join('\n');
}

const MET: Record<string, string> = { true: 'yes', false: 'NO', null: '—' };

/** The run's mode: a quick one cannot meet the targets set for the full run's counts. */
export type BenchMode = 'full' | 'quick';

/** Whether a quick run leaves this missed target unjudged (it is set for the full run's counts). */
const notJudged = (t: TargetCheck, mode: BenchMode) => mode === 'quick' && t.met === false && !t.anyScale;

/**
 * One row per target; a scenario without targets (not run, error) gets one row saying why. In a
 * quick run, a full-run target missed reads "n/a (quick)", not NO.
 */
export function resultsTable(results: readonly ScenarioResult[], mode: BenchMode = 'full'): string {
  const rows: string[][] = [];
  for (const r of results) {
    const scenario = `${r.id}. ${r.title}`;
    if (r.targets.length === 0) {
      rows.push([scenario, r.figures, '—', '—', r.verdict]);
      continue;
    }
    r.targets.forEach((t, i) => {
      rows.push([
        i === 0 ? scenario : '',
        i === 0 ? r.figures : '',
        `${t.name} ${t.target}`.trim(),
        t.measured,
        notJudged(t, mode) ? 'n/a (quick)' : MET[String(t.met)]!,
      ]);
    });
  }
  return markdownTable(['Scenario', 'Measured', 'Target', 'Value', 'Met'], rows);
}

/**
 * One line per missed target naming its bottleneck. A quick run lists a scenario as missed only
 * when it missed a target that holds at any scale.
 */
export function missedLines(results: readonly ScenarioResult[], mode: BenchMode = 'full'): string[] {
  const missed = (r: ScenarioResult) =>
    r.verdict === 'missed' && (mode === 'full' || r.targets.some((t) => t.met === false && t.anyScale));
  return results
    .filter((r) => missed(r) || r.verdict === 'not run' || r.verdict === 'error')
    .map((r) => {
      if (r.verdict === 'missed')
        return `${r.id}. ${r.title}: missed; ${r.bottleneck ?? 'bottleneck not found'}`;
      return `${r.id}. ${r.title}: ${r.verdict}; ${r.notes[0] ?? ''}`;
    });
}
