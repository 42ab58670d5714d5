import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.unit.test.ts', 'packages/*/test/unit/**/*.unit.test.ts'],
          setupFiles: ['test/setup/leak-check.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          include: [
            'test/integration/**/*.integration.test.ts',
            'packages/*/test/integration/**/*.integration.test.ts',
            'test/e2e/**/*.e2e.test.ts',
            'test/chaos/**/*.chaos.test.ts',
          ],
          globalSetup: ['test/setup/global-setup.ts'],
          setupFiles: ['test/setup/leak-check.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
        },
      },
    ],
  },
});
