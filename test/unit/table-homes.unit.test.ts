import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, tsFiles } from './support/repo-sources.ts';

/**
 * One home per table (docs/decisions.md "Each table's SQL has one home"): the statements that
 * name a table live in one folder, so a change to the table, or to a rule over it, is made and
 * reviewed in one place. SQL is the text of every tagged template (sql`…`, tx`…`, and the
 * fragments inside them) and every literal passed to `.unsafe(…)`; comments and other strings may
 * name a table freely.
 */
const HOMES: Record<string, string> = {
  sync_ledger: 'src/sync/sync-ledger/',
  read_ranges: 'src/sync/objects/reading/',
  read_runs: 'src/sync/objects/reading/',
  connection_migrations: 'src/sync/connection-migration/store.ts',
  migration_states: 'src/sync/connection-migration/store.ts',
  migration_transitions: 'src/sync/connection-migration/store.ts',
  chart_backups: 'src/sync/connection-migration/store.ts',
  id_map: 'src/sync/mirror/store.ts',
  result_batches: 'src/sync/reporting/',
  platform_idempotency: 'src/sync/reporting/',
  sync_requests: 'src/sync/sync-button/requests.ts',
  platform_grants: 'src/platform/grant/grant-store.ts',
  oauth_consents: 'src/platform/grant/grant-store.ts',
};

/**
 * Statements about the sync ledger that join another table's rows stay one SQL text in the
 * ledger's home (docs/decisions.md says why); they are the only SQL outside a table's home.
 */
const JOINED_FROM: Record<string, string[]> = {
  result_batches: ['src/sync/sync-ledger/'],
  sync_requests: ['src/sync/sync-ledger/'],
};

/**
 * Columns of a table another module owns: the sync ledger's batch columns (batch_id, the reported
 * state, the platform's answer per row) are reporting's, written in the transactions that freeze
 * and acknowledge a batch, so that one module holds every step of a result batch.
 */
const COLUMNS_OWNED_BY: Record<string, string[]> = {
  sync_ledger: ['src/sync/reporting/ledger-batches.ts'],
};

/** The SQL texts of one source file: static parts of tagged templates, and `.unsafe` literals. */
function sqlTexts(file: string): string[] {
  const source = ts.createSourceFile(
    file,
    readFileSync(new URL(file, REPO_ROOT), 'utf8'),
    ts.ScriptTarget.Latest,
  );
  const texts: string[] = [];
  const templateText = (t: ts.TemplateLiteral) =>
    ts.isNoSubstitutionTemplateLiteral(t)
      ? t.text
      : [t.head.text, ...t.templateSpans.map((s) => s.literal.text)].join(' ');
  const visit = (node: ts.Node) => {
    if (ts.isTaggedTemplateExpression(node)) texts.push(templateText(node.template));
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === 'unsafe'
    ) {
      const [first] = node.arguments;
      if (first && ts.isStringLiteral(first)) texts.push(first.text);
      if (first && (ts.isNoSubstitutionTemplateLiteral(first) || ts.isTemplateExpression(first)))
        texts.push(templateText(first));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return texts;
}

const files = [...tsFiles('src'), ...tsFiles('jobs')];
const sqlByFile = new Map(files.map((f) => [f, sqlTexts(f)]));
const names = (table: string) => new RegExp(`\\b${table}\\b`, 'i');

describe('each table has one home for its SQL', () => {
  for (const [table, home] of Object.entries(HOMES)) {
    it(`only ${home} has SQL that names ${table}`, () => {
      const allowed = [home, ...(JOINED_FROM[table] ?? []), ...(COLUMNS_OWNED_BY[table] ?? [])];
      const outside = files.filter(
        (f) =>
          !allowed.some((folder) => f.startsWith(folder)) &&
          sqlByFile.get(f)!.some((text) => names(table).test(text)),
      );
      expect(outside, `SQL naming ${table} belongs in ${home}`).toEqual([]);
    });

    it(`${home} has SQL that names ${table} (the map is not stale)`, () => {
      const inside = files.filter(
        (f) => f.startsWith(home) && sqlByFile.get(f)!.some((text) => names(table).test(text)),
      );
      expect(inside.length).toBeGreaterThan(0);
    });
  }

  it('finds SQL in tagged templates and .unsafe literals, not in comments', () => {
    expect(sqlByFile.get('src/sync/sync-ledger/claims.ts')!.join('\n')).toMatch(/insert into sync_ledger/);
    const mentionsOnly = files.filter(
      (f) =>
        !sqlByFile.get(f)!.some((text) => names('read_runs').test(text)) &&
        names('read_runs').test(readFileSync(new URL(f, REPO_ROOT), 'utf8')),
    );
    expect(mentionsOnly).toContain('jobs/join-runs.ts');
  });
});
