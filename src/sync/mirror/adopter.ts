import type { KindOps, RemoteItem } from './model.ts';

/**
 * What the platform already holds of one kind (for options: of one field), read through the list
 * endpoint filtered to the target connection, by remote id. Uploads are insert-only
 * (docs/platform.md F12): after a crash between "uploaded" and "recorded", the retry meets
 * DEVELOPER_7020, and the items found here are adopted (their svc_ids recorded) instead of
 * created twice. Read once per kind and run; read again when a 7020 names nothing known, and to
 * look up items an upload answer did not confirm (F41).
 */
export class Adopter {
  private known: Map<string, RemoteItem> | null = null;
  private reads = 0;

  constructor(private readonly ops: Pick<KindOps, 'list'>) {}

  get loaded(): boolean {
    return this.known !== null;
  }

  /** How many times the platform list was read. */
  get readCount(): number {
    return this.reads;
  }

  async load(): Promise<void> {
    const known = new Map<string, RemoteItem>();
    for await (const item of this.ops.list()) known.set(item.remoteId, item);
    this.known = known;
    this.reads++;
  }

  /**
   * The platform's items among these remote ids (none before the first load). Callers pass the ids
   * they send, so only items under the ERP's own remote ids are ever adopted (docs/platform.md F41).
   */
  find(remoteIds: readonly string[]): RemoteItem[] {
    if (!this.known) return [];
    const found: RemoteItem[] = [];
    for (const id of remoteIds) {
      const item = this.known.get(id);
      if (item) found.push(item);
    }
    return found;
  }
}
