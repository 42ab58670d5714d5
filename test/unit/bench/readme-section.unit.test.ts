import { describe, expect, it } from 'vitest';
import { BEGIN, END, performanceSection, replaceBetweenMarkers } from '../../../bench/lib/readme-section.ts';
import type { BenchReport } from '../../../bench/lib/report.ts';

const report: BenchReport = {
  mode: 'full',
  command: 'npm run bench',
  startedAt: '2026-11-21T15:00:00.000Z',
  finishedAt: '2026-11-21T15:20:00.000Z',
  machine: {
    cores: 2,
    cpuModel: 'CPU',
    memoryGiB: 8,
    freeMemoryGiB: 4,
    node: 'v20.20.2',
    os: 'Linux',
    loadAverageAtStart: 1.5,
  },
  caveat: 'Noisy.',
  table: '| a |\n| - |',
  missed: ['2. Raw: missed; ERP writes'],
  scenarios: [],
};

describe('README performance section', () => {
  it('names the command, the machine, the table and each missed target', () => {
    const section = performanceSection(report);
    expect(section).toContain('`npm run bench` on 2026-11-21 (full run)');
    expect(section).toContain('2 cores (CPU), 8 GiB memory, Node v20.20.2');
    expect(section).toContain('| a |\n| - |');
    expect(section).toContain('- 2. Raw: missed; ERP writes');
  });

  it('states how fast the machine was when the run timed the reference work, and nothing when it did not', () => {
    const timed = performanceSection({
      ...report,
      referenceWork: {
        atStart: { ms: 354.4, trialsMs: [360, 354.4, 301] },
        atEnd: { ms: 612, trialsMs: [612, 700, 598] },
      },
    });
    expect(timed).toContain('reference work 354.4 ms (301-360) at the start, 612 ms (598-700) at the end');
    expect(timed).toContain('median and range of 3 trials');
    expect(performanceSection(report)).not.toContain('reference work');
  });

  it('replaces only what lies between the markers', () => {
    const text = `# Title\n\n${BEGIN}\nold\n${END}\n\n## Next\n`;
    expect(replaceBetweenMarkers(text, 'new')).toBe(`# Title\n\n${BEGIN}\nnew\n${END}\n\n## Next\n`);
    expect(() => replaceBetweenMarkers('no markers', 'x')).toThrow(/performance:begin/);
  });
});
