import type { z } from 'zod';
import type { ErpAdapter } from './adapter.ts';
import { CustomField, ErpVendor, FieldOption, GlAccount, TaxCode, TaxRate } from './chart.ts';
import { ErpError, type ErpErrorInfo, integratorReference, needsIntegrator } from './errors.ts';
import { type ErpWrite, type ObjectKind, WriteResult } from './types.ts';

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

function issuesOf(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || 'value'}: ${i.message}`)
    .join('; ');
}

async function* parsedStream<T>(source: AsyncIterable<unknown>, schema: z.ZodType<T>, what: string) {
  for await (const item of source) {
    const parsed = schema.safeParse(item);
    if (!parsed.success) throw new ErpError(badAnswer(what, issuesOf(parsed.error)));
    yield parsed.data;
  }
}

function checkResult(result: unknown, input: { kind: ObjectKind; objectId: string }): WriteResult {
  const parsed = WriteResult.safeParse(result);
  let problem = parsed.success ? undefined : issuesOf(parsed.error);
  if (parsed.success && (parsed.data.kind !== input.kind || parsed.data.objectId !== input.objectId)) {
    problem = `result for ${parsed.data.kind} ${parsed.data.objectId} answered ${input.kind} ${input.objectId}`;
  }
  if (!problem && parsed.success) return parsed.data;
  return {
    ok: false,
    kind: input.kind,
    objectId: input.objectId,
    error: badAnswer('write result', problem!),
  };
}

export function validatingAdapter(inner: ErpAdapter): ErpAdapter {
  const one = (input: ErpWrite) => (result: WriteResult) => checkResult(result, input);
  return {
    name: inner.name,
    glAccounts: () => parsedStream(inner.glAccounts(), GlAccount, 'GL account'),
    customFields: () => parsedStream(inner.customFields(), CustomField, 'custom field'),
    fieldOptions: (fieldId) => parsedStream(inner.fieldOptions(fieldId), FieldOption, 'field option'),
    vendors: () => parsedStream(inner.vendors(), ErpVendor, 'vendor'),
    taxRates: () => parsedStream(inner.taxRates(), TaxRate, 'tax rate'),
    taxCodes: () => parsedStream(inner.taxCodes(), TaxCode, 'tax code'),
    createVendor: (input) => inner.createVendor(input).then(one(input)),
    async postMany(items) {
      const results = await inner.postMany(items);
      if (results.length !== items.length) {
        throw new ErpError(badAnswer('batch result', `${results.length} results for ${items.length} items`));
      }
      return results.map((result, i) => checkResult(result, items[i]!));
    },
    close: () => inner.close(),
  };
}
