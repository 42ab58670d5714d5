import type { GlAccount as ErpGlAccount } from '../../../erp/index.ts';
import { type GlAccount, GlAccountInput } from '../../../platform/index.ts';
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
 * GL accounts (docs/platform.md F8): name and code are PATCHable; the classification is sent at
 * upload and fixed after it, because a GL PATCH refuses `classification` (F30). The content hash
 * covers what a PATCH can change, so a classification changed in the ERP sends nothing (see
 * docs/decisions.md, "GL classification").
 */
function content(name: string, code: string | null | undefined) {
  return { name, code: codeOf(code) };
}

export function desiredGlAccount(account: ErpGlAccount): DesiredItem {
  const body = content(account.name, account.code);
  return {
    remoteId: account.id,
    active: account.active,
    hidden: account.hidden,
    upload: { id: account.id, ...body, classification: account.classification },
    patch: body,
    hash: contentHash(body),
  };
}

export function remoteGlAccount(account: GlAccount): RemoteItem {
  return {
    remoteId: account.id,
    svcId: account.svc_id,
    hash: contentHash(content(account.name, account.code)),
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
