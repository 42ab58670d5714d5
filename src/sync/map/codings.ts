import type { Coding } from '../../erp/index.ts';
import type { FieldSelection } from '../../platform/index.ts';
import { MappingProblem } from './mapping-problem.ts';

/**
 * Reads the platform's accounting_field_selections (docs/platform.md F16, F24, F26) into an ERP
 * coding:
 * GL_ACCOUNT → the GL account, MERCHANT → the accounting vendor, TAX_CODE → the tax code, and
 * every other selection → a custom-field dimension keyed by its field's remote id. Line
 * selections override the object's (a split line may carry its own department).
 */
/** Selection types that name no ERP chart item (F24). */
const PLATFORM_ONLY_TYPES = new Set(['NON_ERP', 'UNIT_OF_MEASURE']);

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
    // F24: any key may be null; a selection without the chosen option's remote id codes nothing.
    const optionId = selection.external_id;
    if (!optionId) continue;
    // F26: bills carry the type only in category_info.
    const type = selection.type || selection.category_info?.type;
    if (type === 'GL_ACCOUNT') coding.glAccountId = optionId;
    else if (type === 'MERCHANT') coding.vendorId = optionId;
    else if (type === 'TAX_CODE') coding.taxCodeId = optionId;
    else {
      const fieldId = selection.category_info?.external_id;
      // F24: NON_ERP and UNIT_OF_MEASURE selections are the platform's own, not ERP dimensions.
      if (fieldId && !PLATFORM_ONLY_TYPES.has(type ?? '')) coding.dimensions[fieldId] = optionId;
    }
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
