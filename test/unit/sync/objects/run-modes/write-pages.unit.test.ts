import { describe, expect, it } from 'vitest';
import type { ReadItem, ReadPage } from '../../../../../src/sync/objects/platform-port.ts';
import { writePages } from '../../../../../src/sync/objects/run-modes/write-pages.ts';

function page(n: number): ReadPage {
  return { items: [{ ok: true, value: { id: `obj-${n}` } } as ReadItem] } as ReadPage;
}

/** Pages 0..count-1, then (when given) the read's failure, as a list the platform stops serving. */
async function* pagesThen(count: number, failure?: Error): AsyncGenerator<ReadPage> {
  for (let n = 0; n < count; n++) {
    await new Promise((resolve) => setTimeout(resolve, 1));
    yield page(n);
  }
  if (failure) throw failure;
}

const idOf = (items: ReadItem[]) => (items[0] as { value: { id: string } }).value.id;
const settings = { readAhead: 3, fillFirst: false, concurrency: 2 };

describe('writePages: the page loop every run shares', () => {
  it('F43: a list that stops part-way ends the reading, not the run: every page read is written and the read error returned', async () => {
    const written: string[] = [];
    const failure = new Error('page link to nowhere');
    const { readError } = await writePages(pagesThen(5, failure), settings, async (items) => {
      written.push(idOf(items));
    });
    expect(readError).toBe(failure);
    expect(written.sort()).toEqual(['obj-0', 'obj-1', 'obj-2', 'obj-3', 'obj-4']);
  });

  it('a page that fails to write ends the reading and is thrown once the pages in flight are done', async () => {
    const finished: string[] = [];
    const run = writePages(pagesThen(50), settings, async (items) => {
      const id = idOf(items);
      if (id === 'obj-2') throw new Error('ERP refused the page');
      await new Promise((resolve) => setTimeout(resolve, 5));
      finished.push(id);
    });
    await expect(run).rejects.toThrow('ERP refused the page');
    // The page beside the failed one finished; the reading stopped soon after, not at page 50.
    expect(finished).toContain('obj-1');
    expect(finished.length).toBeLessThan(10);
  });

  it('stopped(): no page is written once the run is told to stop', async () => {
    const written: string[] = [];
    let stop = false;
    const { readError } = await writePages(
      pagesThen(20),
      { ...settings, concurrency: 1, stopped: () => stop },
      async (items) => {
        written.push(idOf(items));
        if (written.length === 3) stop = true;
      },
    );
    expect(readError).toBeNull();
    expect(written).toEqual(['obj-0', 'obj-1', 'obj-2']);
  });

  it('writes at most `concurrency` pages at once, and every page once', async () => {
    let inFlight = 0;
    let most = 0;
    const written: string[] = [];
    await writePages(pagesThen(12), { ...settings, concurrency: 3 }, async (items) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 4));
      written.push(idOf(items));
      inFlight--;
    });
    expect(most).toBe(3);
    expect(new Set(written).size).toBe(12);
  });
});
