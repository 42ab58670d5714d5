import type { Coding } from '../../erp/types.ts';
import type { FieldSelection } from '../../platform/schemas/objects.ts';
import { MappingProblem } from './mapping-problem.ts';

/**
 * Reads the platform's accounting_field_selections (PLATFORM-FACTS F16) into an ERP coding:
 * GL_ACCOUNT → the GL account, MERCHANT → the accounting vendor, TAX_CODE → the tax code, and
 * every other selection → a custom-field dimension keyed by its field's remote id. Line
 * selections override the object's (a split line may carry its own department).
 */
export function codingFrom(
  objectSelections: readonly FieldSelection[],
  lineSelections: readonly FieldSelection[] = [],
  memo = '',
): Partial<Coding> & { dimensions: Record<string, string>; memo: string } {
  const coding: Partial<Coding> & { dimensions: Record<string, string>; memo: string } = {
    dimensions: {},
    memo,
  };
  for (const selection of [...objectSelections, ...lineSelections]) {
    const type = selection.type || selection.category_info.type;
    if (type === 'GL_ACCOUNT') coding.glAccountId = selection.external_id;
    else if (type === 'MERCHANT') coding.vendorId = selection.external_id;
    else if (type === 'TAX_CODE') coding.taxCodeId = selection.external_id;
    else coding.dimensions[selection.category_info.external_id] = selection.external_id;
  }
  return coding;
}

/** A coding the ERP can post: the GL account is the one selection every line needs. */
export function requireGlAccount(coding: ReturnType<typeof codingFrom>, what: string): Coding {
  if (!coding.glAccountId) {
    throw new MappingProblem(
      'MISSING_GL_ACCOUNT',
      `${what} has no GL account`,
      'Choose a GL account (Category) for it in the spend platform, then sync it again',
    );
  }
  return {
    glAccountId: coding.glAccountId,
    dimensions: coding.dimensions,
    memo: coding.memo,
    ...(coding.vendorId ? { vendorId: coding.vendorId } : {}),
    ...(coding.taxCodeId ? { taxCodeId: coding.taxCodeId } : {}),
  };
}
