import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The parts of a V8 .cpuprofile this summary reads. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

export interface CpuSummary {
  /** Sampled time, ms (idle included). */
  totalMs: number;
  /** Self time per area of the code (src/sync, src/erp, node_modules/zod, (garbage collector)...). */
  areas: Record<string, number>;
  /** Functions with the most self time. */
  top: { fn: string; ms: number }[];
}

/** The area a script URL belongs to: a folder of src/ or bench/, a package, or a node internal. */
export function areaOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node internals';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return `node_modules/${pkg[1]}`;
  const own = /\/((?:src|bench|db|jobs)\/[^/]+)/.exec(url);
  return own ? own[1]!.replace(/\.ts$/, '') : 'other';
}

/** Self time by area and by function, from the samples and their time deltas. */
export function summarizeProfile(profile: CpuProfile, topCount = 15): CpuSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    selfUs.set(id, (selfUs.get(id) ?? 0) + Math.max(0, profile.timeDeltas[i] ?? 0));
  });
  const areas: Record<string, number> = {};
  const fns = new Map<string, number>();
  let total = 0;
  for (const [id, us] of selfUs) {
    const node = byId.get(id);
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const area = areaOf(url, functionName);
    areas[area] = (areas[area] ?? 0) + us;
    const file = url ? `${url.split('/').slice(-2).join('/')}:${lineNumber + 1}` : '';
    const key = `${functionName || '(anonymous)'}${file ? ` ${file}` : ''}`;
    fns.set(key, (fns.get(key) ?? 0) + us);
    total += us;
  }
  const ms = (us: number) => Math.round(us / 100) / 10;
  return {
    totalMs: ms(total),
    areas: Object.fromEntries(
      Object.entries(areas)
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => [k, ms(v)]),
    ),
    top: [...fns]
      .sort((a, b) => b[1] - a[1])
      .slice(0, topCount)
      .map(([fn, us]) => ({ fn, ms: ms(us) })),
  };
}

/** Summary of the first .cpuprofile in a folder, or null when there is none. */
export function summarizeProfileDir(dir: string): (CpuSummary & { file: string }) | null {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.cpuprofile'));
  } catch {
    return null;
  }
  const name = names[0];
  if (!name) return null;
  const file = join(dir, name);
  return { file, ...summarizeProfile(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile) };
}
