import { TAX_CODE_FIELD_EXTERNAL_ID } from '../../platform/schemas/accounting.ts';
import {
  type FieldSelection,
  GL_FIELD_EXTERNAL_ID,
  MERCHANT_FIELD_EXTERNAL_ID,
} from '../../platform/schemas/objects.ts';
import { hashString, Rng } from '../core/prng.ts';
import type { ConnectionChart } from './chart.ts';

/**
 * Builds accounting_field_selections (PLATFORM-FACTS F16, F18) for remote ids. An id uploaded to
 * the active connection shows its real svc_id, name and state; an id never uploaded (a coding
 * drawn from the seed's chart) gets a stable synthetic svc_id and a name derived from the id.
 */

export function syntheticSvcId(kind: string, remoteId: string): string {
  return new Rng(hashString(`${kind}:${remoteId}`)).uuid();
}

function category(externalId: string, type: string, name = externalId): FieldSelection['category_info'] {
  return { id: syntheticSvcId('category', externalId), external_id: externalId, name, type };
}

export class SelectionResolver {
  constructor(private readonly chart: ConnectionChart | null) {}

  gl(remoteId: string): FieldSelection {
    const item = this.chart?.glAccounts.get(remoteId);
    return {
      id: item?.svc_id ?? syntheticSvcId('gl', remoteId),
      external_id: remoteId,
      name: item?.name ?? `GL ${remoteId}`,
      type: 'GL_ACCOUNT',
      category_info: category(GL_FIELD_EXTERNAL_ID, 'GL_ACCOUNT'),
    };
  }

  vendor(remoteId: string): FieldSelection {
    const item = this.chart?.vendors.get(remoteId);
    return {
      id: item?.svc_id ?? syntheticSvcId('vendor', remoteId),
      external_id: remoteId,
      name: item?.name ?? `Vendor ${remoteId}`,
      type: 'MERCHANT',
      category_info: category(MERCHANT_FIELD_EXTERNAL_ID, 'MERCHANT'),
    };
  }

  option(fieldRemoteId: string, optionRemoteId: string): FieldSelection {
    const field = this.chart?.fields.get(fieldRemoteId);
    const option = field ? this.chart?.optionsOf(field.svc_id).get(optionRemoteId) : undefined;
    return {
      id: option?.svc_id ?? syntheticSvcId(`option:${fieldRemoteId}`, optionRemoteId),
      external_id: optionRemoteId,
      name: option?.display_name ?? option?.value ?? optionRemoteId,
      type: 'OTHER',
      category_info: {
        id: field?.svc_id ?? syntheticSvcId('field', fieldRemoteId),
        external_id: fieldRemoteId,
        name: field?.name ?? fieldRemoteId,
        type: 'OTHER',
      },
    };
  }

  freeText(fieldRemoteId: string, text: string): FieldSelection {
    const field = this.chart?.fields.get(fieldRemoteId);
    return {
      id: syntheticSvcId(`text:${fieldRemoteId}`, text),
      external_id: text,
      name: text,
      type: 'OTHER',
      category_info: {
        id: field?.svc_id ?? syntheticSvcId('field', fieldRemoteId),
        external_id: fieldRemoteId,
        name: field?.name ?? fieldRemoteId,
        type: 'OTHER',
      },
    };
  }

  taxCode(remoteId: string): FieldSelection {
    const item = this.chart?.taxCodeOptions.get(remoteId);
    const code = this.chart?.taxCode;
    return {
      id: item?.svc_id ?? syntheticSvcId('tax', remoteId),
      external_id: remoteId,
      name: item?.name ?? `Tax ${remoteId}`,
      type: 'TAX_CODE',
      category_info: {
        id: code?.svc_id ?? syntheticSvcId('category', TAX_CODE_FIELD_EXTERNAL_ID),
        external_id: TAX_CODE_FIELD_EXTERNAL_ID,
        name: code?.name ?? 'Tax code',
        type: 'TAX_CODE',
      },
    };
  }

  /**
   * Whether a selection points at an item the connection has deactivated (DELETE, spec 001 item
   * lifecycle: "item cannot be synced"). Hidden items still sync; unknown ids are not judged.
   */
  isInactive(selection: FieldSelection): boolean {
    if (!this.chart) return false;
    const field = selection.category_info.external_id;
    if (selection.type === 'GL_ACCOUNT')
      return this.chart.glAccounts.get(selection.external_id)?.is_active === false;
    if (selection.type === 'MERCHANT')
      return this.chart.vendors.get(selection.external_id)?.is_active === false;
    if (selection.type === 'TAX_CODE') {
      return this.chart.taxCodeOptions.get(selection.external_id)?.is_active === false;
    }
    const fieldRecord = this.chart.fields.get(field);
    if (!fieldRecord) return false;
    if (!fieldRecord.is_active) return true;
    return this.chart.optionsOf(fieldRecord.svc_id).get(selection.external_id)?.is_active === false;
  }
}
