import { z } from 'zod';
import { issueText } from '../../zod-issues.ts';
import { Currency, IsoDate, RemoteId } from '../types.ts';
import type { ContractFixture } from './subject.ts';

const IdAndName = z.strictObject({ id: RemoteId, name: z.string().min(1) });

/**
 * A `ContractFixture` (subject.ts) as a JSON file, for `ledgersync erp check --fixture`: the same
 * fields, plus the public base URL the service was given for deep links, when it has one.
 * Strict, so a misspelt field is named rather than ignored.
 */
const FixtureFile = z
  .strictObject({
    entityId: RemoteId.nullable(),
    currency: Currency,
    foreignCurrency: Currency,
    openDate: IsoDate,
    closedDate: IsoDate,
    expenseAccountId: RemoteId,
    otherExpenseAccountId: RemoteId,
    inactiveAccount: z.strictObject({ id: RemoteId, code: z.string().min(1) }),
    unknownAccountId: RemoteId,
    vendorId: RemoteId,
    inactiveVendor: IdAndName,
    unknownVendorId: RemoteId,
    taxCodeId: RemoteId,
    dimensions: z.record(z.string().min(1), RemoteId),
    requiredField: IdAndName,
    deepLinkBase: z.url({ protocol: /^https?$/ }).optional(),
  })
  .refine((f) => f.requiredField.id in f.dimensions, {
    path: ['requiredField', 'id'],
    message: 'must be a key of dimensions (every line carries the required field)',
  });

export interface FixtureFileContents {
  fixture: ContractFixture;
  deepLinkBase?: string;
}

/** `openDate: Invalid ISO date`, `inactiveVendor: missing`, `colour: not a fixture field`. */
function describeIssue(issue: z.core.$ZodIssue): string[] {
  const at = issue.path.map(String).join('.');
  const prefix = at ? `${at}.` : '';
  if (issue.code === 'unrecognized_keys')
    return issue.keys.map((key) => `${prefix}${key}: not a fixture field`);
  if (issue.code === 'invalid_type' && / received undefined$/.test(issue.message)) return [`${at}: missing`];
  return [issueText(issue, 'the file')];
}

/**
 * Parses a fixture file's JSON. A bad file is one line naming every bad field
 * (`fixture.json: openDate: Invalid ISO date; inactiveVendor.name: …`), ready for the operator.
 */
export function parseFixtureFile(
  json: unknown,
): { ok: true; value: FixtureFileContents } | { ok: false; problems: string } {
  const parsed = FixtureFile.safeParse(json);
  if (!parsed.success)
    return {
      ok: false,
      problems: parsed.error.issues.flatMap(describeIssue).join('; '),
    };
  const { deepLinkBase, ...fixture } = parsed.data;
  return { ok: true, value: deepLinkBase ? { fixture, deepLinkBase } : { fixture } };
}
