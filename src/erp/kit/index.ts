/**
 * The ERP conformance kit: the behaviour every ERP adapter must show, as plain rules any
 * program can run (no test framework needed). See docs/extending.md "Check an adapter with the
 * kit". test/contract/erp-contract.ts runs the same rules as vitest cases.
 */
export { checkAdapter, type RuleOutcome } from './check.ts';
export { type FixtureFileContents, parseFixtureFile } from './fixture-file.ts';
export { collect, failureOf, objects, referenceOf } from './objects.ts';
export type { RuleGroup } from './rule.ts';
export { ERP_RULES } from './rules.ts';
export type { ContractFixture, ContractSubject } from './subject.ts';
