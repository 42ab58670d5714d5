import type { FieldOption as ErpFieldOption } from '../../../erp/index.ts';
import { type FieldOption, FieldOptionInput } from '../../../platform/index.ts';
import { contentHash } from '../content-hash.ts';
import type { DesiredItem, KindOps, RemoteItem } from '../model.ts';
import {
  answerOf,
  type Chart,
  checkWith,
  codeOf,
  counted,
  type Meter,
  remoteItems,
  type Target,
  visibilityOf,
} from './common.ts';

/**
 * Options of one custom field (docs/platform.md F10), uploaded under the field's svc_id. Value and
 * code are PATCHable (F12); display_name is the platform-side label and is left alone.
 */
function content(value: string, code: string | null | undefined) {
  return { value, code: codeOf(code) };
}

export function desiredFieldOption(option: ErpFieldOption): DesiredItem {
  const body = content(option.value, option.code);
  return {
    remoteId: option.id,
    active: option.active,
    hidden: option.hidden,
    upload: { id: option.id, ...body },
    patch: body,
    hash: contentHash(body),
  };
}

function remoteFieldOption(option: FieldOption): RemoteItem {
  return {
    remoteId: option.id,
    svcId: option.svc_id,
    hash: contentHash(content(option.value, option.code)),
    isActive: option.is_active,
    visibility: visibilityOf(option.visibility),
  };
}

export function fieldOptionOps(chart: Chart, target: Target, meter: Meter, fieldSvcId: string): KindOps {
  return {
    kind: 'field_option',
    listKey: 'options',
    batchSize: 500,
    visibility: true,
    check: checkWith(FieldOptionInput),
    upload: async (items) => {
      const body = { ...target, field_id: fieldSvcId, options: items as never[] };
      const uploaded = await counted(meter, () => chart.uploadFieldOptions(body));
      return answerOf(uploaded.items, remoteFieldOption);
    },
    list: () =>
      remoteItems(chart.listFieldOptions({ ...target, field_id: fieldSvcId }), meter, remoteFieldOption),
    patch: async (svcId, body) => {
      await counted(meter, () => chart.patchFieldOption(svcId, body, target));
    },
    remove: (svcId) => counted(meter, () => chart.deleteFieldOption(svcId, target)),
  };
}
