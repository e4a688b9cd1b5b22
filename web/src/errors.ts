// A failed request in the user's language: the server's error code when it is known (with the
// seconds of a 429's Retry-After), else what the server or the browser said.

import { ApiError } from './api';
import { errorText, digits } from './i18n';

export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) return errorText(err.code, err.message, { seconds: digits(String(err.retryAfter ?? '…')) });
  return err instanceof Error ? err.message : String(err);
}
