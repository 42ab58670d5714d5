import { afterAll, beforeAll, expect } from 'vitest';

/**
 * Fails a test file that leaves a server, socket or child process open: a leaked worker, queue,
 * pool or process shows up here as a handle that was not there when the file started.
 */
const WATCHED = new Set(['TCPServerWrap', 'TCPSocketWrap', 'ProcessWrap', 'PipeWrap']);

function openHandles(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const type of process.getActiveResourcesInfo()) {
    if (WATCHED.has(type)) counts[type] = (counts[type] ?? 0) + 1;
  }
  return counts;
}

let baseline: Record<string, number> = {};

beforeAll(() => {
  baseline = openHandles();
});

afterAll(async () => {
  let leaked: string[] = [];
  for (let attempt = 0; attempt < 20; attempt++) {
    const now = openHandles();
    leaked = Object.entries(now)
      .filter(([type, count]) => count > (baseline[type] ?? 0))
      .map(([type, count]) => `${type} x${count - (baseline[type] ?? 0)}`);
    if (leaked.length === 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(leaked, 'handles left open by this test file').toEqual([]);
});
