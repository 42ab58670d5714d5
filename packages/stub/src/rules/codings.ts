import { TAX_CODE_FIELD_EXTERNAL_ID } from '../../../../src/platform/schemas/accounting.ts';
import { invalid } from '../core/errors.ts';
import { type FieldSelection, GL_FIELD_EXTERNAL_ID, MERCHANT_FIELD_EXTERNAL_ID } from '../schemas/objects.ts';
import type { PlatformSelection, ExternalSelection as SelectionInput } from '../schemas/requests.ts';
import type { ConnectionChart } from '../world/chart.ts';
import type { ConnectionRecord } from '../world/connections.ts';
import { SelectionResolver } from '../world/selections.ts';

/** The connection a coding is resolved against: its chart and its provider's name. */
export type CodingConnection = Pick<ConnectionRecord, 'chart' | 'remote_provider_name'>;

/** A resolved selection and the field external id it is stored under on the object. */
export interface ResolvedCoding {
  field: string;
  selection: FieldSelection;
}

/**
 * POST /accounting/codings (docs/platform.md F18, G26): each selection names a field
 * by external id (`Merchant` = accounting vendor, `Category` = GL account, `TaxCode`, or a custom
 * field's remote id) and an option by remote id, or free text. Only active, visible items can be
 * chosen (docs/platform.md G17: HIDDEN hides from new coding). All selections are checked
 * before any is applied.
 */
export function resolveCodings(
  connection: CodingConnection,
  inputs: SelectionInput[],
  list = 'accounting_field_selections',
): ResolvedCoding[] {
  const { chart } = connection;
  // F36: the selection names the connection's provider, as every served selection does.
  const resolver = new SelectionResolver(chart, connection.remote_provider_name);
  const problems: Array<{ index: number; field_external_id: string; reason: string }> = [];
  const out: ResolvedCoding[] = [];
  inputs.forEach((input, index) => {
    const result = resolveOne(chart, resolver, input);
    if (typeof result === 'string')
      problems.push({ index, field_external_id: input.field_external_id, reason: result });
    else out.push({ field: input.field_external_id, selection: result });
  });
  if (problems.length > 0) throw selectionProblems(list, problems);
  return out;
}

function selectionProblems(list: string, problems: Array<{ index: number; reason: string }>) {
  return invalid(`${list}: ${problems.map((p) => `#${p.index} ${p.reason}`).join('; ')}`, {
    items: problems,
    fields: problems.map((p) => `${list}.${p.index}`),
  });
}

/**
 * docs/platform.md F35: `accounting_coding_selections` name fields and options by platform ids
 * (svc_id). Each is translated to the F18 form (remote ids) and then resolved like it, so both
 * bodies obey the same rules. `field_option_id` alone finds the option among GL accounts,
 * accounting vendors, tax code options and custom-field options (svc_ids are unique); `field_id`
 * beside it must be that option's field: a custom field's or the tax code field's svc_id, or
 * `Category` / `Merchant`.
 */
export function resolvePlatformCodings(
  connection: CodingConnection,
  inputs: PlatformSelection[],
): ResolvedCoding[] {
  const { chart } = connection;
  const problems: Array<{ index: number; reason: string }> = [];
  const external: SelectionInput[] = [];
  inputs.forEach((input, index) => {
    const result = toExternal(chart, input);
    if (typeof result === 'string') problems.push({ index, reason: result });
    else external.push(result);
  });
  if (problems.length > 0) throw selectionProblems('accounting_coding_selections', problems);
  return resolveCodings(connection, external, 'accounting_coding_selections');
}

function toExternal(chart: ConnectionChart, input: PlatformSelection): SelectionInput | string {
  if ('free_form_text' in input) {
    const field = chart.fields.getBySvc(input.field_id);
    if (!field) return `unknown field_id ${input.field_id} (the svc_id of a custom field)`;
    return { field_external_id: field.id, free_form_text: input.free_form_text };
  }
  const found = optionBySvc(chart, input.field_option_id);
  if (!found) return `unknown field_option_id ${input.field_option_id}`;
  const fieldId = input.field_id;
  if (fieldId !== undefined && fieldId !== found.fieldExternalId && fieldId !== found.fieldSvcId) {
    return `field_option_id ${input.field_option_id} is not an option of field_id ${fieldId}`;
  }
  return { field_external_id: found.fieldExternalId, field_option_external_id: found.optionRemoteId };
}

function optionBySvc(
  chart: ConnectionChart,
  svcId: string,
): { fieldExternalId: string; fieldSvcId: string | null; optionRemoteId: string } | null {
  const gl = chart.glAccounts.getBySvc(svcId);
  if (gl) return { fieldExternalId: GL_FIELD_EXTERNAL_ID, fieldSvcId: null, optionRemoteId: gl.id };
  const vendor = chart.vendors.getBySvc(svcId);
  if (vendor)
    return { fieldExternalId: MERCHANT_FIELD_EXTERNAL_ID, fieldSvcId: null, optionRemoteId: vendor.id };
  const tax = chart.taxCodeOptions.getBySvc(svcId);
  if (tax) {
    return {
      fieldExternalId: TAX_CODE_FIELD_EXTERNAL_ID,
      fieldSvcId: chart.taxCode?.svc_id ?? null,
      optionRemoteId: tax.id,
    };
  }
  const option = chart.optionsBySvc.get(svcId);
  if (option)
    return {
      fieldExternalId: option.field_remote_id,
      fieldSvcId: option.field_id,
      optionRemoteId: option.id,
    };
  return null;
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
    // docs/platform.md F31: a deleted tax code field offers no options.
    if (chart.taxCode?.is_active === false) return 'the tax code field is inactive';
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
