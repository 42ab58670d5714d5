import type { GlAccount as ErpGlAccount } from '../../../erp/chart.ts';
import { type GlAccount, GlAccountInput } from '../../../platform/schemas/accounting.ts';
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

/** GL accounts (PLATFORM-FACTS F8): name, code and classification, all PATCHable (F12). */
function content(name: string, code: string | null | undefined, classification: string) {
  return { name, code: codeOf(code), classification };
}

export function desiredGlAccount(account: ErpGlAccount): DesiredItem {
  const body = content(account.name, account.code, account.classification);
  return {
    remoteId: account.id,
    active: account.active,
    hidden: account.hidden,
    upload: { id: account.id, ...body },
    patch: body,
    hash: contentHash(body),
  };
}

export function remoteGlAccount(account: GlAccount): RemoteItem {
  return {
    remoteId: account.id,
    svcId: account.svc_id,
    hash: contentHash(content(account.name, account.code, account.classification)),
    isActive: account.is_active,
    visibility: visibilityOf(account.visibility),
  };
}

export function glAccountOps(chart: Chart, target: Target, meter: Meter): KindOps {
  return {
    kind: 'gl_account',
    listKey: 'gl_accounts',
    batchSize: 500,
    visibility: true,
    check: checkWith(GlAccountInput),
    upload: async (items) => {
      const body = { ...target, gl_accounts: items as never[] };
      const uploaded = await counted(meter, () => chart.uploadGlAccounts(body));
      return answerOf(uploaded.items, remoteGlAccount);
    },
    list: () => remoteItems(chart.listGlAccounts({ ...target }), meter, remoteGlAccount),
    patch: async (svcId, body) => {
      await counted(meter, () => chart.patchGlAccount(svcId, body, target));
    },
    remove: (svcId) => counted(meter, () => chart.deleteGlAccount(svcId, target)),
  };
}
