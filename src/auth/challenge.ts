import { ApiError } from '../errors/api-error.ts';

/** The 401 challenge of docs/contract/auth.md#unauthorized, RFC 6750. */
export const REALM = 'open-api';

export function unauthorized(keySent: boolean): ApiError {
  const challenge = keySent ? `Bearer realm="${REALM}", error="invalid_token"` : `Bearer realm="${REALM}"`;
  return new ApiError('UNAUTHORIZED', {
    message: keySent ? 'The API key is invalid, revoked or expired.' : 'An API key is required: send Authorization: Bearer <key>.',
    headers: { 'www-authenticate': challenge },
  });
}

export function forbiddenScope(scope: string): ApiError {
  return new ApiError('FORBIDDEN_SCOPE', {
    message: `This operation needs an API key with the "${scope}" scope.`,
    details: { required_scope: scope },
    headers: { 'www-authenticate': `Bearer realm="${REALM}", error="insufficient_scope", scope="${scope}"` },
  });
}
