import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Machine } from './machine.ts';
import type { ScenarioResult } from './result.ts';
import { REPO_ROOT } from './spawn-ts.ts';

export interface BenchReport {
  mode: 'full' | 'quick';
  command: string;
  startedAt: string;
  finishedAt: string;
  machine: Machine;
  caveat: string;
  /** The printed table (Markdown). */
  table: string;
  /** One line per missed target, naming its bottleneck. */
  missed: string[];
  scenarios: ScenarioResult[];
}

export const RESULTS_DIR = join(REPO_ROOT, 'bench', 'results');

/** Writes latest.json and a copy named by the run's start (ISO date, ':' made file-safe). */
export async function writeReport(report: BenchReport): Promise<string[]> {
  await mkdir(RESULTS_DIR, { recursive: true });
  const text = `${JSON.stringify(report, null, 2)}\n`;
  const stamp = report.startedAt.replace(/:/g, '-');
  const files = [
    join(RESULTS_DIR, 'latest.json'),
    join(RESULTS_DIR, `${stamp}${report.mode === 'quick' ? '-quick' : ''}.json`),
  ];
  for (const file of files) await writeFile(file, text);
  return files.map((f) => f.slice(REPO_ROOT.length));
}
