import { z } from 'zod';
import { issuesText } from '../../zod-issues.ts';
import { TrytonFault, type TrytonRpc } from './rpc.ts';

/**
 * Typed calls on Tryton models over a TrytonRpc: search_read with zod-parsed rows, create,
 * write, delete, buttons and one-step wizards. Every call carries the user's preferences as its
 * context (company, language), as Tryton's own clients do, or names another company of the user
 * (forCompany).
 */

export type Domain = unknown[];
export type Context = Record<string, unknown>;

const Preferences = z.looseObject({ company: z.number().int().nullable().optional() });
const Ids = z.array(z.number().int());
const WizardCreated = z.tuple([z.number().int(), z.string(), z.string()]);

export interface SearchOptions {
  offset?: number;
  limit?: number;
  order?: [string, 'ASC' | 'DESC'][];
  context?: Context;
}

export class TrytonModels {
  private preferences: Promise<Context> | undefined;

  /**
   * `scope` is merged over the user's preferences: forCompany() makes a view of the same session
   * whose calls all work in one company.
   */
  constructor(
    readonly rpc: TrytonRpc,
    private readonly parent?: TrytonModels,
    private readonly scope: Context = {},
  ) {}

  /**
   * The same session working in another company of the user: the context names the company, so
   * Tryton takes per-company values (the default payable account) and new records' default
   * company from it. (Which records a search sees is the user's stored Company Filter: see
   * companies.ts; searches name their company.)
   */
  forCompany(companyId: number): TrytonModels {
    return new TrytonModels(this.rpc, this.parent ?? this, { company: companyId });
  }

  /** The user's context (cached for the adapter's life; a company switch needs a restart). */
  context(): Promise<Context> {
    if (this.parent) return this.parent.context().then((c) => ({ ...c, ...this.scope }));
    this.preferences ??= this.rpc.call('model.res.user.get_preferences', [true, {}]).then((raw) => {
      const parsed = Preferences.safeParse(raw);
      if (!parsed.success) {
        throw new TrytonFault('server', 'get_preferences', 'Tryton answered malformed preferences');
      }
      return parsed.data as Context;
    });
    this.preferences.catch(() => {
      this.preferences = undefined;
    });
    return this.preferences;
  }

  private async withContext(extra?: Context): Promise<Context> {
    return { ...(await this.context()), ...extra };
  }

  async searchRead<T>(
    model: string,
    domain: Domain,
    fields: string[],
    schema: z.ZodType<T>,
    options: SearchOptions = {},
  ): Promise<T[]> {
    const raw = await this.rpc.call(`model.${model}.search_read`, [
      domain,
      options.offset ?? 0,
      options.limit ?? null,
      options.order ?? [['id', 'ASC']],
      fields,
      await this.withContext(options.context),
    ]);
    const parsed = z.array(schema).safeParse(raw);
    if (!parsed.success) {
      throw new TrytonFault(
        'server',
        `${model}.search_read`,
        `Tryton answered malformed ${model} rows (${issuesText(parsed.error, { limit: 1 })})`,
      );
    }
    return parsed.data;
  }

  /** Every matching row, page by page, so a large chart never loads in one answer. */
  async *searchAll<T>(
    model: string,
    domain: Domain,
    fields: string[],
    schema: z.ZodType<T>,
    options: { pageSize?: number; context?: Context } = {},
  ): AsyncIterable<T & { id: number }> {
    const pageSize = options.pageSize ?? 500;
    let lastId = 0;
    for (;;) {
      // Keyset paging on id: stable while records are added meanwhile.
      const page = await this.searchRead(
        model,
        [...domain, ['id', '>', lastId]],
        [...new Set(['id', ...fields])],
        schema.and(z.object({ id: z.number().int() })),
        { limit: pageSize, order: [['id', 'ASC']], context: options.context },
      );
      for (const row of page) yield row;
      if (page.length < pageSize) return;
      lastId = page[page.length - 1]!.id;
    }
  }

  async create(model: string, values: Record<string, unknown>[], context?: Context): Promise<number[]> {
    const raw = await this.rpc.call(`model.${model}.create`, [values, await this.withContext(context)]);
    const parsed = Ids.safeParse(raw);
    if (!parsed.success) throw new TrytonFault('server', `${model}.create`, 'Tryton answered no ids');
    return parsed.data;
  }

  async write(model: string, ids: number[], values: Record<string, unknown>, context?: Context) {
    await this.rpc.call(`model.${model}.write`, [ids, values, await this.withContext(context)]);
  }

  async delete(model: string, ids: number[], context?: Context): Promise<void> {
    await this.rpc.call(`model.${model}.delete`, [ids, await this.withContext(context)]);
  }

  /** A button or RPC method taking record ids (post, close, create_period...). */
  async button(model: string, method: string, ids: number[], context?: Context): Promise<unknown> {
    return this.rpc.call(`model.${model}.${method}`, [ids, await this.withContext(context)]);
  }

  /**
   * Opens a wizard on the records given by `active` and runs `body` with its `execute(state,
   * data)` (data holds the values of the wizard's views by state name); the session is deleted
   * afterwards, whatever happens.
   */
  async wizard<T>(
    name: string,
    body: (execute: (state: string, data?: Record<string, unknown>) => Promise<unknown>) => Promise<T>,
    active?: { model: string; ids: number[] },
  ): Promise<T> {
    const context = await this.withContext(
      active ? { active_model: active.model, active_id: active.ids[0], active_ids: active.ids } : {},
    );
    const created = WizardCreated.safeParse(await this.rpc.call(`wizard.${name}.create`, [context]));
    if (!created.success) throw new TrytonFault('server', `${name}.create`, 'Tryton answered no wizard');
    const session = created.data[0];
    try {
      return await body((state, data = {}) =>
        this.rpc.call(`wizard.${name}.execute`, [session, data, state, context]),
      );
    } finally {
      await this.rpc.call(`wizard.${name}.delete`, [session, context]).catch(() => undefined);
    }
  }
}
