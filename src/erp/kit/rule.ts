import { isDeepStrictEqual } from 'node:util';
import type { ContractSubject } from './subject.ts';

/** The groups of rules, in the order the kit runs them. */
export type RuleGroup = 'chart' | 'objects' | 'idempotency' | 'refusals' | 'replays';

/**
 * One behaviour every ERP adapter must show. `run` resolves when the adapter holds to it and
 * throws RuleBroken (with a reason a developer can act on) when it does not; any other throw
 * means the adapter failed in a way the rule did not expect, and breaks the rule as well.
 */
export interface Rule {
  /** Stable, e.g. "idempotency.sequential-retry": what a report or a test names. */
  id: string;
  group: RuleGroup;
  title: string;
  run(subject: ContractSubject): Promise<void>;
}

export class RuleBroken extends Error {
  override readonly name = 'RuleBroken';
}

/** Breaks the rule with `reason` unless `condition` holds. */
export function check(condition: unknown, reason: string): asserts condition {
  if (!condition) throw new RuleBroken(reason);
}

/**
 * Breaks the rule unless `actual` deep-equals `expected` as JSON (an absent property and one set
 * to undefined are the same answer), showing both.
 */
export function checkEqual<T>(actual: unknown, expected: T, what: string): asserts actual is T {
  if (!isDeepStrictEqual(asJson(actual), asJson(expected))) {
    throw new RuleBroken(`${what}: expected ${show(expected)}, got ${show(actual)}`);
  }
}

function asJson(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

export function show(value: unknown): string {
  const text = JSON.stringify(value);
  return text && text.length > 400 ? `${text.slice(0, 400)}…` : String(text);
}
