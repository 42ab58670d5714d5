import type { Rule } from './rule.ts';
import { chartRules } from './rules-chart.ts';
import { idempotencyRules } from './rules-idempotency.ts';
import { objectRules } from './rules-objects.ts';
import { refusalRules } from './rules-refusals.ts';
import { replayRules } from './rules-replays.ts';

/** Every rule of the kit, in run order: chart, objects, idempotency, refusals, replays. */
export const ERP_RULES: readonly Rule[] = [
  ...chartRules,
  ...objectRules,
  ...idempotencyRules,
  ...refusalRules,
  ...replayRules,
];
