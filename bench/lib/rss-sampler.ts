import { readFileSync } from 'node:fs';

export interface RssSample {
  /** Epoch ms of the sample. */
  at: number;
  /** Resident set in MB (10^6 bytes), the unit of the targets. */
  rssMB: number;
}

/** VmRSS of a process from /proc/<pid>/status, in MB; null when it is gone (or not Linux). */
export function readRssMB(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return match ? (Number(match[1]) * 1024) / 1e6 : null;
  } catch {
    return null;
  }
}

/** Samples a process's resident memory every `everyMs` until stopped or the process is gone. */
export class RssSampler {
  readonly samples: RssSample[] = [];
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pid: number,
    everyMs = 200,
  ) {
    this.sample();
    this.timer = setInterval(() => this.sample(), everyMs);
    this.timer.unref();
  }

  sample(): number | null {
    const rssMB = readRssMB(this.pid);
    if (rssMB !== null) this.samples.push({ at: Date.now(), rssMB });
    return rssMB;
  }

  stop(): RssSample[] {
    clearInterval(this.timer);
    return this.samples;
  }

  get peakMB(): number {
    return this.samples.reduce((max, s) => Math.max(max, s.rssMB), 0);
  }
}
