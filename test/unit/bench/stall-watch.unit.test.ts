import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { check, type ScenarioResult, withStalls } from '../../../bench/lib/result.ts';
import { REPO_ROOT } from '../../../bench/lib/spawn-ts.ts';
import { type MachineStall, stallNote, watchMachineStalls } from '../../../bench/lib/stall-watch.ts';

function result(over: Partial<ScenarioResult>): ScenarioResult {
  return {
    id: '3',
    title: 'Sync button under load',
    verdict: 'missed',
    figures: 'p99 20.8 s',
    targets: [check('p99', '<= 2 s', '20.8 s', false)],
    metrics: {},
    settings: {},
    notes: [],
    bottleneck: 'p99 20.8 s: runs took p99 18.8 s',
    durationMs: 0,
    ...over,
  };
}

/** Runs the watch in a child process, stops that process for `pauseMs`, and returns what it saw. */
async function watchedChildPausedFor(pauseMs: number): Promise<MachineStall[]> {
  const script = `
    import { watchMachineStalls } from './bench/lib/stall-watch.ts';
    const watch = watchMachineStalls();
    process.stdout.write('ready\\n');
    process.stdin.once('data', async () => {
      process.stdout.write(JSON.stringify(await watch.stop()) + '\\n');
      process.exit(0);
    });
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: REPO_ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
  });
  while (!out.includes('ready')) await sleep(20);
  await sleep(200);
  child.kill('SIGSTOP');
  await sleep(pauseMs);
  child.kill('SIGCONT');
  await sleep(200);
  child.stdin.write('stop\n');
  await once(child, 'exit');
  return JSON.parse(out.split('\n')[1]!) as MachineStall[];
}

describe('bench: pauses of the whole machine', () => {
  it('a process held by the system (SIGSTOP for 1.5 s) is seen as one pause of about that length', async () => {
    const stalls = await watchedChildPausedFor(1500);
    expect(stalls).toHaveLength(1);
    expect(stalls[0]!.ms).toBeGreaterThanOrEqual(1000);
    expect(stalls[0]!.atMs).toBeGreaterThan(0);
  }, 30_000);

  it("the benchmark's own busy loop is not a pause: the watch keeps time in a thread of its own", async () => {
    const watch = watchMachineStalls();
    await sleep(100);
    const until = Date.now() + 1500;
    while (Date.now() < until) {
      // the main thread is busy for 1.5 s
    }
    expect(await watch.stop()).toEqual([]);
  });

  it('a missed scenario names the pause beside its bottleneck; a met one only in its notes', () => {
    const stalls = [{ atMs: 23_000, ms: 17_900 }];
    const missed = withStalls(result({}), stalls);
    expect(missed.metrics.machineStalls).toEqual(stalls);
    expect(missed.bottleneck).toBe(
      'p99 20.8 s: runs took p99 18.8 s; the machine paused 17.9 s during this scenario (17.9 s at +23 s): ' +
        'a thread of the benchmark that only keeps time was held as long, so every process was, and the figures include the pause',
    );
    const met = withStalls(result({ verdict: 'met', bottleneck: undefined }), stalls);
    expect(met.bottleneck).toBeUndefined();
    expect(met.notes).toEqual([stallNote(stalls)]);
  });

  it('no pause: nothing is added but the empty list in the figures', () => {
    const r = withStalls(result({}), []);
    expect(r.notes).toEqual([]);
    expect(r.bottleneck).toBe('p99 20.8 s: runs took p99 18.8 s');
    expect(r.metrics.machineStalls).toEqual([]);
  });
});
