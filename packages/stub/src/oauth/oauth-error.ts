import { ApiError, errorBody } from '../core/errors.ts';

/**
 * An OAuth error of the token endpoint (docs/platform.md F45): the F2 body plus the OAuth fields
 * `error` (a string here) and `error_description`, and the OAuth code again in
 * `error_v2.additional_info.oauth_error`. Descriptions never quote a token, code or secret.
 */
export type OAuthErrorCode =
  | 'invalid_grant'
  | 'invalid_client'
  | 'invalid_request'
  | 'invalid_scope'
  | 'unsupported_grant_type';

export class OAuthError extends ApiError {
  constructor(
    readonly oauthError: OAuthErrorCode,
    readonly description: string,
  ) {
    // invalid_client is the F1 refusal (401 DEVELOPER_7002); every other one is 400.
    const client = oauthError === 'invalid_client';
    super(
      client ? 'DEVELOPER_7002' : 'DEVELOPER_7001',
      `${oauthError}: ${description}`,
      { oauth_error: oauthError },
      client ? 401 : 400,
    );
  }

  override toBody(): ReturnType<ApiError['toBody']> & { error: string; error_description: string } {
    return {
      ...errorBody(this.code, this.message, this.additionalInfo),
      error: this.oauthError,
      error_description: this.description,
    };
  }
}
