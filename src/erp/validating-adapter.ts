import type { z } from 'zod';
import { issuesText } from '../zod-issues.ts';
import type { ErpAdapter } from './adapter.ts';
import { CustomField, ErpVendor, FieldOption, GlAccount, TaxCode, TaxRate } from './chart.ts';
import { ErpError, type ErpErrorInfo, integratorReference, needsIntegrator } from './errors.ts';
import { CheckResult, type ErpWrite, type ObjectKind, WriteResult } from './types.ts';

/**
 * An ERP's answers are a boundary: this wrapper parses every chart item and write result an
 * adapter returns. A malformed chart item throws ErpError
 * (needs_integrator); a malformed write result becomes a needs_integrator failure for that item,
 * so the sync layer never reports a reference id it cannot trust.
 */

function badAnswer(what: string, issues: string): ErpErrorInfo {
  return needsIntegrator(
    'ERP_BAD_ANSWER',
    `The ERP answered with a malformed ${what}`,
    issues,
    integratorReference('bad-answer', what, issues),
  );
}

async function* parsedStream<T>(source: AsyncIterable<unknown>, schema: z.ZodType<T>, what: string) {
  for await (const item of source) {
    const parsed = schema.safeParse(item);
    if (!parsed.success) throw new ErpError(badAnswer(what, issuesText(parsed.error, { root: 'value' })));
    yield parsed.data;
  }
}

function checkResult<T extends WriteResult | CheckResult>(
  result: unknown,
  input: { kind: ObjectKind; objectId: string },
  schema: z.ZodType<T>,
): T {
  const parsed = schema.safeParse(result);
  let problem = parsed.success ? undefined : issuesText(parsed.error, { root: 'value' });
  if (parsed.success && (parsed.data.kind !== input.kind || parsed.data.objectId !== input.objectId)) {
    problem = `result for ${parsed.data.kind} ${parsed.data.objectId} answered ${input.kind} ${input.objectId}`;
  }
  if (!problem && parsed.success) return parsed.data;
  return {
    ok: false,
    kind: input.kind,
    objectId: input.objectId,
    error: badAnswer('write result', problem!),
  } as T;
}

/** One result per item, each answering its own item, or the batch is the adapter's fault. */
async function checkedBatch<T extends WriteResult | CheckResult>(
  items: readonly ErpWrite[],
  results: Promise<unknown[]>,
  schema: z.ZodType<T>,
): Promise<T[]> {
  const answered = await results;
  if (answered.length !== items.length) {
    throw new ErpError(badAnswer('batch result', `${answered.length} results for ${items.length} items`));
  }
  return answered.map((result, i) => checkResult(result, items[i]!, schema));
}

export function validatingAdapter(inner: ErpAdapter): ErpAdapter {
  const one = (input: ErpWrite) => (result: WriteResult) => checkResult(result, input, WriteResult);
  return {
    name: inner.name,
    ...(inner.writeSettleMs ? { writeSettleMs: inner.writeSettleMs } : {}),
    glAccounts: () => parsedStream(inner.glAccounts(), GlAccount, 'GL account'),
    customFields: () => parsedStream(inner.customFields(), CustomField, 'custom field'),
    fieldOptions: (fieldId) => parsedStream(inner.fieldOptions(fieldId), FieldOption, 'field option'),
    vendors: () => parsedStream(inner.vendors(), ErpVendor, 'vendor'),
    taxRates: () => parsedStream(inner.taxRates(), TaxRate, 'tax rate'),
    taxCodes: () => parsedStream(inner.taxCodes(), TaxCode, 'tax code'),
    createVendor: (input) => inner.createVendor(input).then(one(input)),
    postMany: (items) => checkedBatch(items, inner.postMany(items), WriteResult),
    // Only where the adapter has it: a dry run without it says its writes went unchecked.
    ...(inner.checkMany
      ? { checkMany: (items) => checkedBatch(items, inner.checkMany!(items), CheckResult) }
      : {}),
    close: () => inner.close(),
  };
}
