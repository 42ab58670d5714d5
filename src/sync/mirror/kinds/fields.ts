import type { CustomField } from '../../../erp/index.ts';
import { CreateFieldRequest, type Field } from '../../../platform/index.ts';
import { contentHash } from '../content-hash.ts';
import type { DesiredItem, KindOps, RemoteItem } from '../model.ts';
import { type Chart, checkWith, counted, type Meter, remoteItems, type Target } from './common.ts';

/**
 * Custom fields (docs/platform.md F9): one per call, and posting an existing id returns the
 * existing field, so a field is never duplicated and never meets 7020. Only the name can be
 * PATCHed; the input type and is_required_for are set at creation. Fields have no visibility on
 * the platform (the guide names it for GL accounts and field options only), so an ERP "hidden" is
 * not mirrored.
 *
 * F34: the platform reads DATE fields but never creates them. Such a field is not sent; it is
 * reported on every run with what to do (docs/decisions.md, "DATE custom fields").
 */
export const DATE_FIELD_PROBLEM =
  'the platform cannot create DATE fields by API: create the field on the platform by hand, or give it another type in the ERP';

export function desiredField(field: CustomField): DesiredItem {
  const body = { name: field.name };
  return {
    ...(field.inputType === 'DATE' ? { problem: DATE_FIELD_PROBLEM } : {}),
    remoteId: field.id,
    active: field.active,
    hidden: field.hidden,
    upload: {
      id: field.id,
      name: field.name,
      input_type: field.inputType,
      is_required_for: field.requiredFor,
    },
    patch: body,
    hash: contentHash(body),
  };
}

function remoteField(field: Field): RemoteItem {
  return {
    remoteId: field.id,
    svcId: field.svc_id,
    hash: contentHash({ name: field.name }),
    isActive: field.is_active,
    visibility: 'VISIBLE',
  };
}

const checkField = checkWith(CreateFieldRequest);

export function fieldOps(chart: Chart, target: Target, meter: Meter): KindOps {
  return {
    kind: 'field',
    listKey: 'fields',
    batchSize: 1,
    visibility: false,
    check: (item) => checkField({ ...target, ...item }),
    upload: async (items) => {
      const body = { ...target, ...(items[0] as { id: string; name: string; input_type: 'SINGLE_CHOICE' }) };
      const field = await counted(meter, () => chart.createField(body));
      // F41: an answer without the field confirms nothing; the upload reads the fields again.
      return field ? { items: [remoteField(field)], unreadable: 0 } : { items: [], unreadable: 1 };
    },
    list: () => remoteItems(chart.listFields({ ...target }), meter, remoteField),
    patch: async (svcId, body) => {
      await counted(meter, () => chart.patchField(svcId, body, target));
    },
    remove: (svcId) => counted(meter, () => chart.deleteField(svcId, target)),
  };
}
