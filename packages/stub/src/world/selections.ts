import { TAX_CODE_FIELD_EXTERNAL_ID } from '../../../../src/platform/schemas/accounting.ts';
import { hashString, Rng } from '../core/prng.ts';
import {
  type AnySelection,
  type BillFieldSelection,
  type CategoryInfo,
  type FieldSelection,
  GL_FIELD_EXTERNAL_ID,
  MERCHANT_FIELD_EXTERNAL_ID,
  type ReimbursementFieldSelection,
} from '../schemas/objects.ts';
import type { ConnectionChart } from './chart.ts';

/**
 * Builds accounting_field_selections (docs/platform.md F16, F18) for remote ids. An id uploaded to
 * the active connection shows its real svc_id, name, code and state; an id never uploaded (a
 * coding drawn from the seed's chart) gets a stable synthetic svc_id and a name derived from the
 * id. docs/platform.md F36: `provider_name` is always a string (the connection's provider);
 * `external_code` is the item's code and is left out without one, and `source` is left out (the
 * stub does not record who added a selection): the live service never sends either as null.
 * Reimbursements (F24) and bills (F26) reshape these with the helpers below.
 */

/** Provider name of selections served while no connection is active (a seed's default). */
const DEFAULT_PROVIDER_NAME = 'Stub ERP';

/** The item's code as a selection's `external_code`: left out when it has none (F36). */
function codeOf(code: string | null | undefined): { external_code?: string } {
  return code ? { external_code: code } : {};
}

/**
 * Every object naming the same chart item carries the same synthetic id, and drawing it was a
 * fifth of a page's build (profiled: 2 ms of about 10 per page of 100 transactions). The ids are
 * a pure function of their key, so each is drawn once; the keys are chart items, a few hundred.
 */
const syntheticIds = new Map<string, string>();
const SYNTHETIC_IDS_KEPT = 100_000;

function syntheticSvcId(kind: string, remoteId: string): string {
  const key = `${kind}:${remoteId}`;
  let id = syntheticIds.get(key);
  if (id === undefined) {
    id = new Rng(hashString(key)).uuid();
    if (syntheticIds.size < SYNTHETIC_IDS_KEPT) syntheticIds.set(key, id);
  }
  return id;
}

function category(externalId: string, type: CategoryInfo['type'], name = externalId): CategoryInfo {
  return { id: syntheticSvcId('category', externalId), external_id: externalId, name, type };
}

/**
 * docs/platform.md F26: a bill's selection has no top-level `type` (nor `source`); its
 * `external_code` is null without a code (F36 leaves it out only on transactions).
 */
export function toBillSelection(s: FieldSelection): BillFieldSelection {
  return {
    id: s.id,
    external_id: s.external_id,
    external_code: s.external_code ?? null,
    name: s.name,
    provider_name: s.provider_name,
    category_info: s.category_info,
  };
}

/** docs/platform.md F24: on reimbursements every key of a selection is present, any may be null. */
export function toReimbursementSelection(s: FieldSelection): ReimbursementFieldSelection {
  return { ...s, external_code: s.external_code ?? null, source: s.source ?? null };
}

/** The selection's type: top-level (F16) or, on bills, in `category_info` (F26). */
export function selectionType(s: AnySelection): string {
  return s.type ?? s.category_info.type;
}

export class SelectionResolver {
  constructor(
    private readonly chart: ConnectionChart | null,
    /** The active connection's `remote_provider_name`: every selection's `provider_name` (F36). */
    private readonly providerName: string = DEFAULT_PROVIDER_NAME,
  ) {}

  gl(remoteId: string): FieldSelection {
    const item = this.chart?.glAccounts.get(remoteId);
    return {
      id: item?.svc_id ?? syntheticSvcId('gl', remoteId),
      external_id: remoteId,
      ...codeOf(item?.code),
      name: item?.name ?? `GL ${remoteId}`,
      type: 'GL_ACCOUNT',
      provider_name: this.providerName,
      category_info: category(GL_FIELD_EXTERNAL_ID, 'GL_ACCOUNT'),
    };
  }

  vendor(remoteId: string): FieldSelection {
    const item = this.chart?.vendors.get(remoteId);
    return {
      id: item?.svc_id ?? syntheticSvcId('vendor', remoteId),
      external_id: remoteId,
      ...codeOf(item?.code),
      name: item?.name ?? `Vendor ${remoteId}`,
      type: 'MERCHANT',
      provider_name: this.providerName,
      category_info: category(MERCHANT_FIELD_EXTERNAL_ID, 'MERCHANT'),
    };
  }

  option(fieldRemoteId: string, optionRemoteId: string): FieldSelection {
    const field = this.chart?.fields.get(fieldRemoteId);
    const option = field ? this.chart?.optionsOf(field.svc_id).get(optionRemoteId) : undefined;
    return {
      id: option?.svc_id ?? syntheticSvcId(`option:${fieldRemoteId}`, optionRemoteId),
      external_id: optionRemoteId,
      ...codeOf(option?.code),
      name: option?.display_name ?? option?.value ?? optionRemoteId,
      type: 'OTHER',
      provider_name: this.providerName,
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
      provider_name: this.providerName,
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
      provider_name: this.providerName,
      category_info: {
        id: code?.svc_id ?? syntheticSvcId('category', TAX_CODE_FIELD_EXTERNAL_ID),
        external_id: TAX_CODE_FIELD_EXTERNAL_ID,
        name: code?.name ?? 'Tax code',
        type: 'TAX_CODE',
      },
    };
  }

  /**
   * Whether a selection points at an item the connection has deactivated (DELETE, docs/platform.md
   * G17: "item cannot be synced"). Hidden items still sync; unknown ids are not judged.
   */
  isInactive(selection: AnySelection): boolean {
    if (!this.chart) return false;
    const field = selection.category_info.external_id;
    const type = selectionType(selection);
    if (type === 'GL_ACCOUNT') return this.chart.glAccounts.get(selection.external_id)?.is_active === false;
    if (type === 'MERCHANT') return this.chart.vendors.get(selection.external_id)?.is_active === false;
    if (type === 'TAX_CODE') {
      return this.chart.taxCodeOptions.get(selection.external_id)?.is_active === false;
    }
    const fieldRecord = this.chart.fields.get(field);
    if (!fieldRecord) return false;
    if (!fieldRecord.is_active) return true;
    return this.chart.optionsOf(fieldRecord.svc_id).get(selection.external_id)?.is_active === false;
  }
}
