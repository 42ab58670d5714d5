import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Fields of /proc/<pid>/stat after the command name: [0] state, [1] ppid, [11] utime ... */
function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

const TICKS = 100;

/** User + system CPU seconds a process has used so far, null when it is gone (or not Linux). */
export function readCpuSeconds(pid: number): number | null {
  const f = statFields(pid);
  return f ? (Number(f[11]) + Number(f[12])) / TICKS : null;
}

/**
 * CPU seconds of a process and all its children, live or exited (exited children are added to
 * the parent's cutime/cstime): for PostgreSQL, the postmaster and every backend.
 */
export function treeCpuSeconds(pid: number): number | null {
  const own = statFields(pid);
  if (!own) return null;
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const f = statFields(Number(name));
    if (f && Number(f[1]) === pid) ticks += Number(f[11]) + Number(f[12]);
  }
  return ticks / TICKS;
}

/** The pid of the PostgreSQL server whose data folder this is (postmaster.pid, line 1). */
export function postmasterPid(dataDir: string): number | null {
  try {
    const pid = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}
