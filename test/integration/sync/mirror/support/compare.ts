import type { ErpAdapter } from '../../../../../src/erp/index.ts';

/**
 * "The platform is identical to the ERP", checked on GET /__stub/chart: every remote id at most
 * once; every active ERP item present, active, with the ERP's content and visibility; every
 * inactive or gone ERP item absent or inactive. Returns the differences (empty when identical).
 */
export interface StubChart {
  accounting_connection_id: string;
  counts: Record<string, number>;
  gl_accounts: Array<{
    id: string;
    name: string;
    code: string | null;
    classification: string;
    is_active: boolean;
    visibility: string;
  }>;
  fields: Array<{
    id: string;
    name: string;
    is_active: boolean;
    options: Array<{
      id: string;
      value: string;
      code: string | null;
      is_active: boolean;
      visibility: string;
    }>;
  }>;
  vendors: Array<{ id: string; name: string; code: string | null; is_active: boolean }>;
  tax_rates: Array<{ id: string; name: string; rate: string; is_active: boolean }>;
  tax_code: { id: string; svc_id: string; name: string } | null;
  tax_code_options: Array<{ id: string; name: string; tax_rate_ids: string[]; is_active: boolean }>;
}

interface Expected {
  active: boolean;
  content: Record<string, unknown>;
}

async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of source) out.push(item);
  return out;
}

function compareTable(
  what: string,
  platform: Array<{ id: string; is_active: boolean } & Record<string, unknown>>,
  erp: Map<string, Expected>,
  contentOf: (item: Record<string, unknown>) => Record<string, unknown>,
  problems: string[],
): void {
  const seen = new Map<string, number>();
  for (const item of platform) seen.set(item.id, (seen.get(item.id) ?? 0) + 1);
  for (const [id, count] of seen)
    if (count > 1) problems.push(`${what} ${id}: ${count} copies on the platform`);
  const byId = new Map(platform.map((p) => [p.id, p]));
  for (const [id, want] of erp) {
    const got = byId.get(id);
    if (!want.active) {
      if (got?.is_active) problems.push(`${what} ${id}: inactive in the ERP, active on the platform`);
      continue;
    }
    if (!got) problems.push(`${what} ${id}: missing on the platform`);
    else if (!got.is_active) problems.push(`${what} ${id}: inactive on the platform`);
    else if (JSON.stringify(contentOf(got)) !== JSON.stringify(want.content)) {
      problems.push(`${what} ${id}: ${JSON.stringify(contentOf(got))} != ${JSON.stringify(want.content)}`);
    }
  }
  for (const item of platform) {
    if (item.is_active && !erp.has(item.id))
      problems.push(`${what} ${item.id}: active on the platform, not in the ERP`);
  }
}

const vis = (hidden: boolean) => (hidden ? 'HIDDEN' : 'VISIBLE');

export async function chartDifferences(chart: StubChart, erp: ErpAdapter): Promise<string[]> {
  const problems: string[] = [];
  const gl = await collect(erp.glAccounts());
  compareTable(
    'GL account',
    chart.gl_accounts,
    new Map(
      gl.map((a) => [
        a.id,
        {
          active: a.active,
          content: {
            name: a.name,
            code: a.code,
            classification: a.classification,
            visibility: vis(a.hidden),
          },
        },
      ]),
    ),
    (p) => ({ name: p.name, code: p.code ?? '', classification: p.classification, visibility: p.visibility }),
    problems,
  );
  const fields = await collect(erp.customFields());
  compareTable(
    'field',
    chart.fields,
    new Map(fields.map((f) => [f.id, { active: f.active, content: { name: f.name } }])),
    (p) => ({ name: p.name }),
    problems,
  );
  for (const field of fields) {
    const onPlatform = chart.fields.find((f) => f.id === field.id);
    const options = await collect(erp.fieldOptions(field.id));
    if (!field.active && !onPlatform) continue;
    compareTable(
      `option ${field.id}/`,
      onPlatform?.options ?? [],
      new Map(
        options.map((o) => [
          o.id,
          { active: o.active, content: { value: o.value, code: o.code, visibility: vis(o.hidden) } },
        ]),
      ),
      (p) => ({ value: p.value, code: p.code ?? '', visibility: p.visibility }),
      problems,
    );
  }
  const vendors = await collect(erp.vendors());
  compareTable(
    'vendor',
    chart.vendors,
    new Map(vendors.map((v) => [v.id, { active: v.active, content: { name: v.name, code: v.code } }])),
    (p) => ({ name: p.name, code: p.code ?? '' }),
    problems,
  );
  const rates = await collect(erp.taxRates());
  compareTable(
    'tax rate',
    chart.tax_rates,
    new Map(rates.map((r) => [r.id, { active: true, content: { name: r.name, rate: r.rate } }])),
    (p) => ({ name: p.name, rate: p.rate }),
    problems,
  );
  const codes = await collect(erp.taxCodes());
  if (codes.length > 0 && !chart.tax_code) problems.push('tax code field missing on the platform');
  compareTable(
    'tax code',
    chart.tax_code_options,
    new Map(
      codes.map((c) => [
        c.id,
        { active: c.active, content: { name: c.name, tax_rate_ids: [...c.rateIds].sort() } },
      ]),
    ),
    (p) => ({ name: p.name, tax_rate_ids: [...(p.tax_rate_ids as string[])].sort() }),
    problems,
  );
  return problems;
}
