import { TAX_CODE_FIELD_EXTERNAL_ID } from '../../platform/schemas/accounting.ts';
import {
  type FieldSelection,
  GL_FIELD_EXTERNAL_ID,
  MERCHANT_FIELD_EXTERNAL_ID,
} from '../../platform/schemas/objects.ts';
import type { SelectionInput } from '../../platform/schemas/syncs.ts';
import { invalid } from '../core/errors.ts';
import type { ConnectionChart } from '../world/chart.ts';
import { SelectionResolver } from '../world/selections.ts';

/**
 * POST /accounting/codings (PLATFORM-FACTS F18; spec 001 rule 2): each selection names a field
 * by external id (`Merchant` = accounting vendor, `Category` = GL account, `TaxCode`, or a custom
 * field's remote id) and an option by remote id, or free text. Only active, visible items can be
 * chosen (spec 001 item lifecycle: HIDDEN hides from new coding). All selections are checked
 * before any is applied.
 */
export function resolveCodings(chart: ConnectionChart, inputs: SelectionInput[]): FieldSelection[] {
  const resolver = new SelectionResolver(chart);
  const problems: Array<{ index: number; field_external_id: string; reason: string }> = [];
  const out: FieldSelection[] = [];
  inputs.forEach((input, index) => {
    const result = resolveOne(chart, resolver, input);
    if (typeof result === 'string')
      problems.push({ index, field_external_id: input.field_external_id, reason: result });
    else out.push(result);
  });
  if (problems.length > 0) {
    throw invalid(
      `accounting_field_selections: ${problems.map((p) => `#${p.index} ${p.reason}`).join('; ')}`,
      {
        items: problems,
        fields: problems.map((p) => `accounting_field_selections.${p.index}`),
      },
    );
  }
  return out;
}

function resolveOne(
  chart: ConnectionChart,
  resolver: SelectionResolver,
  input: SelectionInput,
): FieldSelection | string {
  const field = input.field_external_id;
  const option = 'field_option_external_id' in input ? input.field_option_external_id : null;
  if (field === MERCHANT_FIELD_EXTERNAL_ID) {
    if (option === null) return 'Merchant needs field_option_external_id';
    const vendor = chart.vendors.get(option);
    if (!vendor) return `unknown accounting vendor ${option} (upload it with POST /accounting/vendors first)`;
    if (!vendor.is_active) return `accounting vendor ${option} is inactive`;
    return resolver.vendor(option);
  }
  if (field === GL_FIELD_EXTERNAL_ID) {
    if (option === null) return 'Category needs field_option_external_id';
    const gl = chart.glAccounts.get(option);
    if (!gl) return `unknown GL account ${option}`;
    if (!gl.is_active || gl.visibility === 'HIDDEN') return `GL account ${option} is not selectable`;
    return resolver.gl(option);
  }
  if (field === TAX_CODE_FIELD_EXTERNAL_ID) {
    if (option === null) return 'TaxCode needs field_option_external_id';
    const tax = chart.taxCodeOptions.get(option);
    if (!tax?.is_active) return `unknown or inactive tax code ${option}`;
    return resolver.taxCode(option);
  }
  const record = chart.fields.get(field);
  if (!record?.is_active) return `unknown or inactive field ${field}`;
  if (option === null) {
    if (record.input_type === 'SINGLE_CHOICE') return `field ${field} needs field_option_external_id`;
    return resolver.freeText(field, (input as { free_form_text: string }).free_form_text);
  }
  const opt = chart.optionsOf(record.svc_id).get(option);
  if (!opt) return `unknown option ${option} of field ${field}`;
  if (!opt.is_active || opt.visibility === 'HIDDEN')
    return `option ${option} of field ${field} is not selectable`;
  return resolver.option(field, option);
}
