import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Machine } from './machine.ts';
import type { ReferenceWorkAtEnds } from './reference-work.ts';
import type { ScenarioResult } from './result.ts';
import { REPO_ROOT } from './spawn-ts.ts';

export interface BenchReport {
  mode: 'full' | 'quick';
  command: string;
  startedAt: string;
  finishedAt: string;
  machine: Machine;
  /**
   * The fixed CPU work of bench/lib/reference-work.ts, timed before the first scenario and after
   * the last: compares machines, and shows a host that slowed down during the run. Absent in
   * reports written before it was measured.
   */
  referenceWork?: ReferenceWorkAtEnds;
  caveat: string;
  /** The printed table (Markdown). */
  table: string;
  /** One line per missed target, naming its bottleneck. */
  missed: string[];
  scenarios: ScenarioResult[];
}

export const RESULTS_DIR = join(REPO_ROOT, 'bench', 'results');

/**
 * Where a run's report goes: latest.json (tracked, the figures the README quotes) for a full run,
 * quick.json (ignored by git) for a quick one, which must not replace the full run's figures; and
 * a copy named by the run's start (ISO date, ':' made file-safe).
 */
export function reportFiles(report: Pick<BenchReport, 'mode' | 'startedAt'>): string[] {
  const stamp = report.startedAt.replace(/:/g, '-');
  const quick = report.mode === 'quick';
  return [
    join(RESULTS_DIR, quick ? QUICK_FILE : LATEST_FILE),
    join(RESULTS_DIR, `${stamp}${quick ? '-quick' : ''}.json`),
  ];
}

export const LATEST_FILE = 'latest.json';
export const QUICK_FILE = 'quick.json';

export async function writeReport(report: BenchReport): Promise<string[]> {
  await mkdir(RESULTS_DIR, { recursive: true });
  const text = `${JSON.stringify(report, null, 2)}\n`;
  const files = reportFiles(report);
  for (const file of files) await writeFile(file, text);
  return files.map((f) => f.slice(REPO_ROOT.length));
}
