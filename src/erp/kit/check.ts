import type { Rule } from './rule.ts';
import { ERP_RULES } from './rules.ts';
import type { ContractSubject } from './subject.ts';

export interface RuleOutcome {
  rule: Pick<Rule, 'id' | 'group' | 'title'>;
  held: boolean;
  /** Why the rule is broken: a RuleBroken's reason, or what the adapter threw. */
  reason?: string;
}

export interface CheckOptions {
  /** Called after each rule, e.g. to print progress. */
  onRule?: (outcome: RuleOutcome) => void;
  /** The rules to run (default: all of them, ERP_RULES). */
  rules?: readonly Rule[];
}

/**
 * Runs every rule against an adapter, one after another, and says which hold. A broken rule
 * never stops the others: each builds its own objects under fresh ids. The adapter writes into
 * the ERP it points at, so point it at test books.
 */
export async function checkAdapter(
  subject: ContractSubject,
  options: CheckOptions = {},
): Promise<RuleOutcome[]> {
  const outcomes: RuleOutcome[] = [];
  for (const rule of options.rules ?? ERP_RULES) {
    const { id, group, title } = rule;
    let outcome: RuleOutcome;
    try {
      await rule.run(subject);
      outcome = { rule: { id, group, title }, held: true };
    } catch (error) {
      const reason =
        error instanceof Error
          ? `${error.name === 'RuleBroken' ? '' : `${error.name}: `}${error.message}`
          : String(error);
      outcome = { rule: { id, group, title }, held: false, reason };
    }
    outcomes.push(outcome);
    options.onRule?.(outcome);
  }
  return outcomes;
}
