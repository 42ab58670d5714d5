import { scrubString } from '../secrets.ts';

/**
 * One error shape for everything the platform answers or fails to answer (docs/platform.md F2).
 * Subclasses exist only where a caller branches on them. Messages carry the trace id and never
 * a token or secret: every message goes through scrubString, whatever it quotes.
 */
export interface PlatformErrorInit {
  /** HTTP status; null when no response arrived (network error, timeout). */
  status: number | null;
  /** error_v2.error_code, e.g. DEVELOPER_7001; null when the body had none. */
  code: string | null;
  message: string;
  traceId: string | null;
  retryable: boolean;
  additionalInfo?: Record<string, unknown> | null;
  method?: string;
  path?: string;
  /** True when an earlier attempt may have reached the platform (response lost after sending). */
  afterUncertainAttempt?: boolean;
  cause?: unknown;
}

export class PlatformError extends Error {
  readonly status: number | null;
  readonly code: string | null;
  readonly traceId: string | null;
  readonly retryable: boolean;
  readonly additionalInfo: Record<string, unknown> | null;
  readonly method: string | null;
  readonly path: string | null;
  readonly afterUncertainAttempt: boolean;
  /** The platform's own message, scrubbed, without the request/trace decoration. */
  readonly platformMessage: string;

  constructor(init: PlatformErrorInit) {
    super(describe(init), init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.status = init.status;
    this.code = init.code;
    this.traceId = init.traceId;
    this.retryable = init.retryable;
    this.additionalInfo = init.additionalInfo ?? null;
    this.method = init.method ?? null;
    this.path = init.path ? scrubString(init.path) : null;
    this.afterUncertainAttempt = init.afterUncertainAttempt ?? false;
    this.platformMessage = scrubString(init.message);
  }
}

function describe(init: PlatformErrorInit): string {
  const where = init.method && init.path ? `${init.method} ${init.path}: ` : '';
  const what = [init.status, init.code].filter((p) => p !== null).join(' ');
  const trace = init.traceId ? ` (trace ${init.traceId})` : '';
  return scrubString(`${where}${what ? `${what} ` : ''}${init.message}${trace}`);
}

/** 422 DEVELOPER_7001: the body failed validation; additional_info names the fields (F2, F5). */
export class ValidationError extends PlatformError {}

/**
 * 400 DEVELOPER_7020: a remote id of the batch already exists; nothing was created (F12).
 * When `afterUncertainAttempt` is set, the duplicates may be this very batch, applied by an
 * attempt whose response was lost: the caller should look the ids up before splitting.
 */
export class DuplicateUploadError extends PlatformError {
  readonly duplicateIds: string[];
  constructor(init: PlatformErrorInit) {
    super(init);
    this.duplicateIds = duplicateIdsOf(init.additionalInfo ?? null);
  }
}

/** 400 DEVELOPER_7089: the connection is a direct one and accepts no API syncs or writes. */
export class DirectConnectionError extends PlatformError {}

/** 400 DEVELOPER_7005 for a key this client sent with a different body (F15): permanent. */
export class IdempotencyConflictError extends PlatformError {}

/** 403 DEVELOPER_7100: the token lacks a scope; the operator must grant it. */
class MissingScopeError extends PlatformError {}

/** No response: connection refused or reset, socket closed, or the client's own timeout. */
export class NetworkError extends PlatformError {}

/** A 2xx whose body is not the documented envelope (not JSON, or the wrong top-level shape). */
export class UnexpectedResponseError extends PlatformError {}

const DUPLICATE_ID_KEYS = ['duplicate_ids', 'duplicate_remote_ids', 'remote_ids', 'ids', 'duplicates'];

/** Reads the duplicate remote ids out of additional_info, whichever list key the platform used. */
export function duplicateIdsOf(info: Record<string, unknown> | null): string[] {
  if (!info) return [];
  for (const key of DUPLICATE_ID_KEYS) {
    const value = info[key];
    if (Array.isArray(value)) return value.map(idText).filter((v): v is string => v !== null);
  }
  return [];
}

function idText(value: unknown): string | null {
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  if (value && typeof value === 'object' && 'id' in value) return idText((value as { id: unknown }).id);
  return null;
}

type ErrorClass = new (init: PlatformErrorInit) => PlatformError;

const CLASS_BY_CODE: Record<string, ErrorClass> = {
  DEVELOPER_7001: ValidationError,
  DEVELOPER_7020: DuplicateUploadError,
  DEVELOPER_7089: DirectConnectionError,
  DEVELOPER_7100: MissingScopeError,
};

/** Builds the right subclass for an error_v2 code. */
export function platformErrorFor(init: PlatformErrorInit): PlatformError {
  const ErrorType = (init.code && CLASS_BY_CODE[init.code]) || PlatformError;
  return new ErrorType(init);
}
