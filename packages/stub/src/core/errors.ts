import { ERROR_STATUS, type ErrorBody, type ErrorCode } from '../../../../src/platform/schemas/common.ts';

/**
 * An answer that is an error, in the F2 shape (docs/platform.md F2). Handlers throw it; the server
 * turns it into `{error_v2, error}` with the code's status. Messages never quote secrets.
 */
export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly additionalInfo: Record<string, unknown> = {},
    status?: number,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status ?? ERROR_STATUS[code];
  }

  toBody(): ErrorBody {
    return errorBody(this.code, this.message, this.additionalInfo);
  }
}

export function errorBody(
  code: string,
  message: string,
  additionalInfo: Record<string, unknown> = {},
): ErrorBody {
  return {
    error_v2: { error_code: code, message, additional_info: additionalInfo, notes: '' },
    error: { error_code: code, message },
  };
}

export const notFound = (what: string, id?: string) =>
  new ApiError('DEVELOPER_7404', id ? `${what} ${id} not found` : `${what} not found`, id ? { id } : {});

export const invalid = (message: string, additionalInfo: Record<string, unknown> = {}) =>
  new ApiError('DEVELOPER_7001', message, additionalInfo);
