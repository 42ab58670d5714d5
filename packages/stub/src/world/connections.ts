import { randomUUID } from 'node:crypto';
import {
  type AccountingConnection,
  ConnectionSettings,
  type ConnectionSettingsInput,
  type ConnectionType,
} from '../../../../src/platform/schemas/accounting.ts';
import { ApiError, invalid, notFound } from '../core/errors.ts';
import { ConnectionChart } from './chart.ts';

/**
 * Accounting connections (docs/platform.md F6, F7, G13,
 * G31). Only one connection is active at a time.
 */
export interface ConnectionRecord {
  id: string;
  connection_type: ConnectionType;
  created_at: string;
  is_active: boolean;
  is_ready_to_migrate: boolean;
  last_linked_at: string | null;
  remote_provider_name: string;
  settings: ConnectionSettings;
  status: 'linked' | 'unlinked';
  default_bill_pay_payment_account_id: string | null;
  chart: ConnectionChart;
}

export interface NewConnection {
  /** Control route only: the id to give the connection (a reset sandbox keeps its own). */
  id?: string;
  remote_provider_name: string;
  is_active?: boolean;
  settings?: ConnectionSettingsInput;
  connection_type?: ConnectionType;
}

export class Connections {
  readonly list: ConnectionRecord[] = [];
  private readonly byId = new Map<string, ConnectionRecord>();

  active(): ConnectionRecord | null {
    return this.list.find((c) => c.is_active) ?? null;
  }

  get(id: string): ConnectionRecord | undefined {
    return this.byId.get(id);
  }

  /** F6: an active connection while one is active returns the incumbent. */
  create(
    input: NewConnection,
    nowIso: string,
    replaceActive = false,
  ): { connection: ConnectionRecord; created: boolean } {
    const wantsActive = input.is_active ?? true;
    const incumbent = this.active();
    if (wantsActive && incumbent && !replaceActive) return { connection: incumbent, created: false };
    if (wantsActive && incumbent) {
      // Control route only (POST /__stub/connections): the customer linked another provider.
      incumbent.is_active = false;
      incumbent.status = 'unlinked';
    }
    if (input.id !== undefined && this.byId.has(input.id))
      throw invalid(`connection ${input.id} exists already`, { fields: ['id'] });
    const record: ConnectionRecord = {
      id: input.id ?? randomUUID(),
      connection_type: input.connection_type ?? 'API',
      created_at: nowIso,
      is_active: wantsActive,
      is_ready_to_migrate: false,
      last_linked_at: wantsActive ? nowIso : null,
      remote_provider_name: input.remote_provider_name,
      settings: ConnectionSettings.parse(input.settings ?? {}),
      // docs/platform.md G13: an inactive connection reads unlinked.
      status: wantsActive ? 'linked' : 'unlinked',
      default_bill_pay_payment_account_id: null,
      chart: new ConnectionChart(),
    };
    this.list.push(record);
    this.byId.set(record.id, record);
    return { connection: record, created: true };
  }

  /**
   * The connection an accounting call targets: `accounting_connection_id` when given (inactive
   * connections during migration, docs/platform.md G30), else the active one.
   */
  resolve(id: string | undefined): ConnectionRecord {
    if (id !== undefined) {
      const found = this.byId.get(id);
      if (!found) throw notFound('accounting connection', id);
      return found;
    }
    const active = this.active();
    if (!active) throw new ApiError('DEVELOPER_7404', 'no active accounting connection');
    return active;
  }

  /** docs/platform.md G25: DIRECT connections are read-only by API (DEVELOPER_7089). */
  assertWritable(connection: ConnectionRecord, what: string): void {
    if (connection.connection_type !== 'API') {
      throw new ApiError(
        'DEVELOPER_7089',
        `${what} is not allowed: the ${connection.connection_type} connection does not accept API writes`,
        { accounting_connection_id: connection.id, connection_type: connection.connection_type },
      );
    }
  }

  /** DELETE /accounting/connection: unlinks; removes custom fields, GL accounts, vendors. */
  unlinkActive(): ConnectionRecord | null {
    const active = this.active();
    if (!active) return null;
    active.is_active = false;
    active.status = 'unlinked';
    active.chart = new ConnectionChart();
    return active;
  }

  /**
   * POST /accounting/connection/{id}/reactivate (docs/platform.md F31): an unlinked connection is
   * linked again (what `reactivate: true` on create used to do). Reactivating the active one
   * returns it unchanged; while another connection is active it is 409 naming the precondition.
   */
  reactivate(id: string, nowIso: string): ConnectionRecord {
    const target = this.byId.get(id);
    if (!target) throw notFound('accounting connection', id);
    if (target.is_active) return target;
    const incumbent = this.active();
    if (incumbent) {
      throw new ApiError(
        'DEVELOPER_7001',
        'reactivate refused: another connection is active (unlink it first)',
        { precondition: 'no_other_active_connection', active_connection_id: incumbent.id },
        409,
      );
    }
    target.is_active = true;
    target.is_ready_to_migrate = false;
    target.status = 'linked';
    target.last_linked_at = nowIso;
    return target;
  }

  /** The customer confirms the switch in the UI (docs/platform.md G31, last row). */
  switchTo(id: string, nowIso: string): ConnectionRecord {
    const target = this.byId.get(id);
    if (!target) throw notFound('accounting connection', id);
    if (!target.is_ready_to_migrate) {
      throw new ApiError('DEVELOPER_7001', 'connection is not ready to migrate', { id }, 409);
    }
    for (const c of this.list) {
      if (c !== target && c.is_active) {
        c.is_active = false;
        c.status = 'unlinked';
      }
    }
    target.is_active = true;
    target.is_ready_to_migrate = false;
    target.status = 'linked';
    target.last_linked_at = nowIso;
    return target;
  }

  clear(): void {
    this.list.length = 0;
    this.byId.clear();
  }
}

export function connectionJson(c: ConnectionRecord): AccountingConnection {
  return {
    id: c.id,
    connection_type: c.connection_type,
    created_at: c.created_at,
    is_active: c.is_active,
    is_ready_to_migrate: c.is_ready_to_migrate,
    last_linked_at: c.last_linked_at,
    remote_provider_name: c.remote_provider_name,
    settings: { ...c.settings },
    status: c.status,
    default_bill_pay_payment_account_id: c.default_bill_pay_payment_account_id,
  };
}
