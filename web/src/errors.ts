// A failed request in the user's language: the server's error code when it is known (with the
// seconds of a 429's Retry-After), else what the server or the browser said.

import { ApiError } from './api';
import { errorText, digits } from './i18n';

export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) return errorText(err.code, err.message, { seconds: digits(String(err.retryAfter ?? '…')) });
  return err instanceof Error ? err.message : String(err);
}

/** A refused password: the server answers 401 (its code may be `unauthorized` rather than
 * `bad_credentials`), which here always means a wrong username or password. */
export function credentialsError(err: unknown): string {
  if (err instanceof ApiError && err.status === 401) return errorText('bad_credentials', err.message);
  return errorMessage(err);
}
