import { setImmediate as tick } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { closingController } from '../../src/closing-controller.ts';

describe('closingController', () => {
  it('lets many waiters listen to the closing signal at once without a MaxListenersExceededWarning', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const closing = closingController();
      const aborted: number[] = [];
      for (let i = 0; i < 50; i++) closing.signal.addEventListener('abort', () => aborted.push(i));
      await tick();
      closing.abort();
      expect(aborted).toHaveLength(50);
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });
});
