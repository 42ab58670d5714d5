import { cpus, freemem, loadavg, type as osType, release, totalmem } from 'node:os';

export interface Machine {
  cores: number;
  cpuModel: string;
  memoryGiB: number;
  freeMemoryGiB: number;
  node: string;
  os: string;
  /** 1-minute load average when the run started: other work on the machine skews the figures. */
  loadAverageAtStart: number;
}

export function describeMachine(): Machine {
  const list = cpus();
  const gib = (bytes: number) => Math.round((bytes / 2 ** 30) * 10) / 10;
  return {
    cores: list.length,
    cpuModel: list[0]?.model.trim() ?? 'unknown',
    memoryGiB: gib(totalmem()),
    freeMemoryGiB: gib(freemem()),
    node: process.version,
    os: `${osType()} ${release()}`,
    loadAverageAtStart: Math.round(loadavg()[0]! * 100) / 100,
  };
}

export function machineLine(m: Machine): string {
  return `${m.cores} cores (${m.cpuModel}), ${m.memoryGiB} GiB memory, Node ${m.node}, ${m.os}`;
}
