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

  it('a quick run marks a missed full-run target "n/a (quick)", not NO; a target that holds at any scale stays NO', () => {
    const targets = [
      check('ceiling/measured', '>= 0.95', '0.76', false),
      check('429s', '= 0', '3', false, { anyScale: true }),
      check('objects synced twice', '= 0', '0', true, { anyScale: true }),
    ];
    const quick = resultsTable([result({ targets, verdict: verdictOf(targets) })], 'quick');
    const rows = quick.split('\n').slice(2);
    expect(rows[0]).toMatch(/\| 0\.76 +\| n\/a \(quick\) \|$/);
    expect(rows[1]).toMatch(/\| 3 +\| NO +\|$/);
    expect(rows[2]).toMatch(/\| 0 +\| yes +\|$/);
    expect(resultsTable([result({ targets, verdict: 'missed' })], 'full')).not.toContain('n/a');
  });

  it('a quick run lists a scenario as missed only for a target that holds at any scale', () => {
    const slow = result({ verdict: 'missed', targets: [check('objects/s', '>= 4000', '900', false)] });
    expect(missedLines([slow], 'quick')).toEqual([]);
    expect(missedLines([slow], 'full')).toHaveLength(1);
    const limited = result({
      verdict: 'missed',
      bottleneck: 'the client sent too fast',
      targets: [check('429s', '= 0', '3', false, { anyScale: true })],
    });
    expect(missedLines([limited], 'quick')).toEqual(['1. Throughput: missed; the client sent too fast']);
  });
});
