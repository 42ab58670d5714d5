import { describe, expect, it } from 'vitest';
import { check, notRun, type ScenarioResult, verdictOf } from '../../../bench/lib/result.ts';
import { markdownTable, missedLines, resultsTable } from '../../../bench/lib/table.ts';

function result(over: Partial<ScenarioResult>): ScenarioResult {
  return {
    id: '1',
    title: 'Throughput',
    verdict: 'met',
    figures: '60000 objects',
    targets: [],
    metrics: {},
    settings: {},
    notes: [],
    durationMs: 0,
    ...over,
  };
}

describe('bench table', () => {
  it('pads columns and escapes pipes', () => {
    expect(markdownTable(['a', 'bb'], [['x|y', '1']])).toBe(
      ['| a    | bb  |', '| ---- | --- |', '| x\\|y | 1   |'].join('\n'),
    );
  });

  it('has one row per target, the scenario named once, and says which were met', () => {
    const targets = [check('ratio', '>= 0.95', '0.97', true), check('429s', '= 0', '3', false)];
    const table = resultsTable([result({ targets, verdict: verdictOf(targets) })]);
    const rows = table.split('\n').slice(2);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/^\| 1\. Throughput +\| 60000 objects +\| ratio >= 0\.95 +\| 0\.97 +\| yes +\|$/);
    expect(rows[1]).toMatch(/^\| +\| +\| 429s = 0 +\| 3 +\| NO +\|$/);
  });

  it('shows a scenario that did not run, and why', () => {
    const table = resultsTable([notRun('4', 'Chart', 'the mirror is missing', ['re-run writes = 0'])]);
    expect(table).toContain('not run: the mirror is missing');
    expect(table).toContain('| —');
  });

  it('judges: met when all targets are, missed when one is not, not run when one could not be judged', () => {
    expect(verdictOf([check('a', '', '', true)])).toBe('met');
    expect(verdictOf([check('a', '', '', true), check('b', '', '', false)])).toBe('missed');
    expect(verdictOf([{ name: 'a', target: '', measured: '', met: null }])).toBe('not run');
    expect(verdictOf([])).toBe('not run');
  });

  it('lists a missed scenario with its bottleneck', () => {
    const lines = missedLines([
      result({}),
      result({ id: '2', title: 'Raw', verdict: 'missed', bottleneck: 'ERP writes 60% of wall' }),
    ]);
    expect(lines).toEqual(['2. Raw: missed; ERP writes 60% of wall']);
  });
});
