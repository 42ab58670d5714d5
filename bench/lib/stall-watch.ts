import { Worker } from 'node:worker_threads';

/** A pause the watch saw: `atMs` after the watch began, the tick came `ms` late. */
export interface MachineStall {
  atMs: number;
  ms: number;
}

export interface StallWatch {
  /** Ends the watch; the pauses it saw, in order. */
  stop(): Promise<MachineStall[]>;
}

/** Ticks this often; a tick this much late or more is a pause. */
const TICK_MS = 50;
const STALL_MS = 1000;

/**
 * The watch runs in a thread of its own: a tick that should come every 50 ms and is a second or
 * more late there means the whole machine stopped running this process (a virtual machine held by
 * its host, the kernel reclaiming memory), not that the benchmark's own loop was busy. Every
 * process of the scenario was held the same time, so its figures include the pause.
 */
const WATCHER = `
const { parentPort } = require('node:worker_threads');
const started = performance.now();
let last = started;
const stalls = [];
const timer = setInterval(() => {
  const now = performance.now();
  const late = now - last - ${TICK_MS};
  if (late >= ${STALL_MS}) stalls.push({ atMs: Math.round(last - started), ms: Math.round(late) });
  last = now;
}, ${TICK_MS});
parentPort.once('message', () => {
  clearInterval(timer);
  parentPort.postMessage(stalls);
});
`;

/** Starts watching for pauses of the whole machine (see WATCHER). */
export function watchMachineStalls(): StallWatch {
  // No flags of this process (a loader, --input-type): the watcher is plain CommonJS.
  const worker = new Worker(WATCHER, { eval: true, execArgv: [] });
  let failure: unknown = null;
  worker.on('error', (error) => {
    failure = error;
  });
  worker.unref();
  return {
    async stop() {
      if (failure) throw failure;
      const answer = new Promise<MachineStall[]>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      worker.postMessage('stop');
      try {
        return await answer;
      } finally {
        await worker.terminate();
      }
    },
  };
}

/** One sentence on the pauses, for a scenario's notes; null when there were none. */
export function stallNote(stalls: readonly MachineStall[]): string | null {
  if (stalls.length === 0) return null;
  const total = stalls.reduce((sum, s) => sum + s.ms, 0);
  const each = stalls
    .map((s) => `${(s.ms / 1000).toFixed(1)} s at +${(s.atMs / 1000).toFixed(0)} s`)
    .join(', ');
  return (
    `the machine paused ${(total / 1000).toFixed(1)} s during this scenario (${each}): ` +
    'a thread of the benchmark that only keeps time was held as long, so every process was, and the figures include the pause'
  );
}
