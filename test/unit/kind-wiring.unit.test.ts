import { readFileSync } from 'node:fs';
import { kindPath, SeedRequest, OBJECT_KINDS as STUB_KINDS } from '@ledgersync/stub';
import { describe, expect, it } from 'vitest';
import { envSchema } from '../../src/config.ts';
import { ObjectKind as ErpObjectKind } from '../../src/erp/index.ts';
import { ConnectionSettings, EventType, SyncType } from '../../src/platform/index.ts';
import { SUBSCRIBED_EVENTS } from '../../src/server/index.ts';
import { KIND_SPECS, kindSpec, OBJECT_KINDS, SYNC_TYPE_ORDER } from '../../src/sync/objects/index.ts';
import { BUTTON_OBJECTS } from '../../src/sync/sync-button/index.ts';

/**
 * Every object kind is wired end to end (docs/extending.md "Add an object kind"): the registry
 * (src/sync/objects/kinds.ts) against what it must agree with and cannot import: the stub's own
 * kind table (the stub models the platform), the platform's sync types, events and connection
 * settings, the ERP contract's write kinds, and the platform facts. A kind added in one place only
 * fails here. test/integration/sync/objects/kind-wiring.integration.test.ts reads each kind from
 * the stub over HTTP.
 */

const root = new URL('../../', import.meta.url);
const specs = OBJECT_KINDS.map((kind) => ({ kind, spec: kindSpec(kind) }));

/** The text of one guide rule of docs/platform.md, from its bold label to the next rule's. */
function guideRule(id: string): string {
  const text = readFileSync(new URL('docs/platform.md', root), 'utf8');
  const start = text.indexOf(`**${id} `);
  expect(start, `${id} in docs/platform.md`).toBeGreaterThanOrEqual(0);
  const end = text.indexOf('\n**G', start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

/** Every `kind` value the ERP HTTP contract names: in its inputs (const) and results (enum). */
function contractKinds(): { inputs: Set<string>; results: string[][] } {
  const contract = JSON.parse(readFileSync(new URL('docs/erp-http-contract.json', root), 'utf8'));
  const inputs = new Set<string>();
  const results: string[][] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const child of node) walk(child);
      return;
    }
    if (!node || typeof node !== 'object') return;
    const kind = (node as { properties?: { kind?: { const?: string; enum?: string[] } } }).properties?.kind;
    if (kind?.const) inputs.add(kind.const);
    if (kind?.enum) results.push(kind.enum);
    for (const child of Object.values(node)) walk(child);
  };
  walk(contract);
  return { inputs, results };
}

describe('object-kind wiring (docs/extending.md "Add an object kind")', () => {
  it('the registry names each kind once, under its own name, in OBJECT_KINDS order', () => {
    expect(Object.keys(KIND_SPECS)).toEqual([...OBJECT_KINDS]);
    for (const { kind, spec } of specs) expect(spec.name).toBe(kind);
  });

  it("F16: a kind's name is its platform list's path, and the stub's kind table serves that list", () => {
    for (const { kind, spec } of specs) expect(spec.list.path).toBe(`/${kind}`);
    expect(STUB_KINDS.map((k) => `/${kindPath(k)}`).sort()).toEqual(
      specs.map(({ spec }) => spec.list.path).sort(),
    );
  });

  it('the stub seeds and dates every kind (the tests and the benchmark seed worlds by kind name)', () => {
    const seeded = SeedRequest.parse({});
    for (const { kind } of specs) expect(seeded, kind).toHaveProperty(kind);
    expect(SeedRequest.shape.dates.unwrap().keyType.options.sort()).toEqual([...OBJECT_KINDS].sort());
  });

  it("G7: a kind's list is read under its read scope, which the worker asks for by default", () => {
    const requested = (envSchema.shape.PLATFORM_SCOPES.parse(undefined) as string).split(' ');
    for (const { kind } of specs) {
      expect(requested).toContain(`${kind}:read`);
    }
  });

  it("F14: a kind's sync types are the platform's, each reported by one kind, in the order they are sent", () => {
    for (const { kind, spec } of specs) {
      expect(spec.syncTypes.length, kind).toBeGreaterThan(0);
      for (const syncType of spec.syncTypes) expect(SyncType.options, kind).toContain(syncType);
    }
    expect(new Set(SYNC_TYPE_ORDER).size).toBe(SYNC_TYPE_ORDER.length);
    expect(SYNC_TYPE_ORDER).toEqual(specs.flatMap(({ spec }) => spec.syncTypes));
  });

  it("a kind's ERP write kinds are ones every ERP accepts (the ERP contract's), and every ERP write kind has its kind", () => {
    const { inputs, results } = contractKinds();
    expect(results.length).toBeGreaterThan(0);
    for (const { kind, spec } of specs) {
      expect(spec.erpKinds.length, kind).toBeGreaterThan(0);
      for (const erpKind of spec.erpKinds) {
        expect(ErpObjectKind.options, kind).toContain(erpKind);
        expect([...inputs], kind).toContain(erpKind);
        for (const accepted of results) expect(accepted, kind).toContain(erpKind);
      }
    }
    expect(new Set(specs.flatMap(({ spec }) => spec.erpKinds))).toEqual(new Set(ErpObjectKind.options));
  });

  it('G28: the kinds with a sync button are the ones G28 names, with its flag, its press event and requested_to_sync', () => {
    const g28 = guideRule('G28');
    const named = /`\*\.sync_requested` \(([^)]*)\)/.exec(g28)?.[1] ?? '';
    for (const { kind, spec } of specs) {
      const button = spec.syncButton;
      expect(spec.list.requestedToSync, kind).toBe(button !== null);
      expect(named.includes(kind), `${kind} named in G28 (${named})`).toBe(button !== null);
      if (!button) {
        expect(EventType.options, kind).not.toContain(`${kind}.sync_requested`);
        continue;
      }
      expect(button.event).toBe(`${kind}.sync_requested`);
      expect(EventType.options).toContain(button.event);
      expect(g28).toContain(`\`${button.flag}\``);
      expect(Object.keys(ConnectionSettings.shape)).toContain(button.flag);
      expect(BUTTON_OBJECTS[button.objectType]).toEqual({
        kind,
        syncType: spec.syncTypes[0],
        flag: button.flag,
      });
    }
    expect(Object.keys(BUTTON_OBJECTS).length).toBe(specs.filter(({ spec }) => spec.syncButton).length);
  });

  it("G12: the events that start a kind's sync are the platform's, name the kind, and are subscribed to", () => {
    for (const { kind, spec } of specs) {
      for (const event of [...spec.syncOn, ...(spec.syncButton ? [spec.syncButton.event] : [])]) {
        expect(EventType.options, kind).toContain(event);
        expect(event.startsWith(`${kind}.`), event).toBe(true);
        expect(SUBSCRIBED_EVENTS).toContain(event);
      }
    }
  });

  it('F28: only a list that honours from_date / to_date is read split by date', () => {
    const split = specs.filter(({ spec }) => spec.splitDate).map(({ kind }) => kind);
    expect(split).toEqual(['transactions']);
  });
});
