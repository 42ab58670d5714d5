import type { MirrorKind, Visibility } from './types.ts';

/** One ERP item as the platform should hold it. */
export interface DesiredItem {
  remoteId: string;
  active: boolean;
  /** Hidden in the ERP: platform visibility HIDDEN where the kind has one (docs/platform.md G17). */
  hidden: boolean;
  /** The upload item, as sent (F8-F13). */
  upload: Record<string, unknown>;
  /** The content part of a PATCH that brings a platform item to this content (F12). */
  patch: Record<string, unknown>;
  /** contentHash of the content a PATCH can change. */
  hash: string;
  /**
   * Why it cannot be sent yet (e.g. the GL account a tax rate names is not mirrored): reported,
   * not recorded, so it is tried again once the cause is gone even if its content is the same.
   */
  problem?: string;
}

/** One item as the platform holds it (an upload answer or a list item). */
export interface RemoteItem {
  remoteId: string;
  svcId: string;
  hash: string;
  isActive: boolean;
  visibility: Visibility;
}

/** One id_map row. */
export interface MappedRow {
  remoteId: string;
  /** Null: an upload the platform refused (failedHash/lastError say why), never created. */
  svcId: string | null;
  hash: string;
  isActive: boolean;
  visibility: Visibility;
  /** The content hash the platform last refused; unchanged content is not sent again. */
  failedHash: string | null;
  lastError: string | null;
}

/** Where one kind's rows live in id_map: the connection, the kind and the parent (options). */
export interface MapScope {
  connectionId: string;
  kind: MirrorKind;
  /** The field's remote id for field options; '' otherwise. */
  parentRemoteId: string;
}

/**
 * The platform calls of one kind (for options: of one field), bound to the target connection.
 * Uploads throw the client's errors (ValidationError 7001, DuplicateUploadError 7020); lists
 * yield what parses. An operation the platform does not offer for the kind is absent.
 */
export interface KindOps {
  kind: MirrorKind;
  /** The body's list of items ("gl_accounts", "options"...), as 422 paths name it. */
  listKey: string;
  /** Items per upload: 500 (docs/platform.md G9), 1 where the endpoint takes one item (F9). */
  batchSize: number;
  /** The kind has a visibility to PATCH (GL accounts and field options, docs/platform.md G17). */
  visibility: boolean;
  /** Checks an upload item against the request schema; the reason when invalid, else null. */
  check(upload: Record<string, unknown>): string | null;
  upload(items: Record<string, unknown>[]): Promise<UploadAnswer>;
  list(): AsyncIterable<RemoteItem>;
  patch?(svcId: string, body: Record<string, unknown>): Promise<void>;
  remove?(svcId: string): Promise<void>;
}

export interface UploadAnswer {
  items: RemoteItem[];
  /** Items of the answer that did not parse: unconfirmed, looked up in the list (docs/platform.md F41). */
  unreadable: number;
}
