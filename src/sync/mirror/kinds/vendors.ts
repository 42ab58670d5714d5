import type { ErpVendor } from '../../../erp/index.ts';
import { type AccountingVendor, AccountingVendorInput } from '../../../platform/index.ts';
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
} from './common.ts';

/** Accounting vendors (docs/platform.md F11): name and code, PATCHable (F12); no visibility. */
function content(name: string, code: string | null | undefined) {
  return { name, code: codeOf(code) };
}

export function desiredVendor(vendor: ErpVendor): DesiredItem {
  const body = content(vendor.name, vendor.code);
  return {
    remoteId: vendor.id,
    active: vendor.active,
    hidden: false,
    upload: { id: vendor.id, ...body },
    patch: body,
    hash: contentHash(body),
  };
}

function remoteVendor(vendor: AccountingVendor): RemoteItem {
  return {
    remoteId: vendor.id,
    svcId: vendor.svc_id,
    hash: contentHash(content(vendor.name, vendor.code)),
    isActive: vendor.is_active,
    visibility: 'VISIBLE',
  };
}

export function vendorOps(chart: Chart, target: Target, meter: Meter): KindOps {
  return {
    kind: 'vendor',
    listKey: 'vendors',
    batchSize: 500,
    visibility: false,
    check: checkWith(AccountingVendorInput),
    upload: async (items) => {
      const uploaded = await counted(meter, () =>
        chart.uploadVendors({ ...target, vendors: items as never[] }),
      );
      return answerOf(uploaded.items, remoteVendor);
    },
    list: () => remoteItems(chart.listVendors({ ...target }), meter, remoteVendor),
    patch: async (svcId, body) => {
      await counted(meter, () => chart.patchVendor(svcId, body, target));
    },
    remove: (svcId) => counted(meter, () => chart.deleteVendor(svcId, target)),
  };
}
