import { describe, expect, it } from 'vitest';
import { PatchGlAccountRequest } from '../../../../../src/platform/index.ts';
import { DATE_FIELD_PROBLEM, desiredField } from '../../../../../src/sync/mirror/kinds/fields.ts';
import { desiredGlAccount, remoteGlAccount } from '../../../../../src/sync/mirror/kinds/gl-accounts.ts';

const account = {
  id: '6100',
  name: 'Office supplies',
  code: '6100',
  classification: 'EXPENSE' as const,
  active: true,
  hidden: false,
};

describe('chart writes the live platform accepts (docs/platform.md F30, F34)', () => {
  it('F30: the classification goes with the upload, never in a GL PATCH body', () => {
    const desired = desiredGlAccount(account);
    expect(desired.upload).toMatchObject({ classification: 'EXPENSE' });
    expect(desired.patch).not.toHaveProperty('classification');
    expect(PatchGlAccountRequest.safeParse({ classification: 'ASSET' }).success).toBe(false);
    expect(
      PatchGlAccountRequest.safeParse({ name: 'x', code: '', accounting_connection_id: 'c' }).success,
    ).toBe(true);
  });

  it('F30: a classification changed in the ERP costs no PATCH on every run (hash covers name and code)', () => {
    const onPlatform = remoteGlAccount({
      id: '6100',
      svc_id: 's-1',
      name: 'Office supplies',
      code: '6100',
      classification: 'ASSET',
      is_active: true,
      visibility: 'VISIBLE',
    });
    expect(desiredGlAccount(account).hash).toBe(onPlatform.hash);
    expect(desiredGlAccount({ ...account, name: 'Stationery' }).hash).not.toBe(onPlatform.hash);
  });

  it('F34: a DATE field is not sent; it is reported with what to do', () => {
    const date = desiredField({
      id: 'due',
      name: 'Due date',
      inputType: 'DATE',
      active: true,
      hidden: false,
      requiredFor: [],
    });
    expect(date.problem).toBe(DATE_FIELD_PROBLEM);
    expect(DATE_FIELD_PROBLEM).toMatch(/create the field on the platform by hand/);
    const choice = desiredField({
      id: 'dept',
      name: 'Department',
      inputType: 'SINGLE_CHOICE',
      active: true,
      hidden: false,
      requiredFor: [],
    });
    expect(choice.problem).toBeUndefined();
  });
});
