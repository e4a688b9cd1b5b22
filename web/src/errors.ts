// A failed request in the user's language: the server's error code when it is known (with the
// seconds of a 429's Retry-After), else what the server or the browser said.

import { ApiError } from './api';
import { errorText, digits, tt } from './i18n';
import { ct } from './i18n-challenge';

export function errorMessage(err: unknown): string {
  // Challenges' and chat's own codes first (`own_challenge`, `line_too_long`, …).
  if (err instanceof ApiError && Object.prototype.hasOwnProperty.call(ct().errors, err.code)) return ct().errors[err.code];
  if (err instanceof ApiError) return errorText(err.code, err.message, { seconds: digits(String(err.retryAfter ?? '…')) });
  return err instanceof Error ? err.message : String(err);
}

/** A refused password: the server answers 401 (its code may be `unauthorized` rather than
 * `bad_credentials`), which here always means a wrong username or password. */
export function credentialsError(err: unknown): string {
  if (err instanceof ApiError && err.status === 401) return errorText('bad_credentials', err.message);
  return errorMessage(err);
}

/** A refused tournament request: the tournament's words for its codes come first (`withdrawn`
 * means a player there, a game elsewhere). */
export function tournamentError(err: unknown): string {
  if (err instanceof ApiError) {
    const known = tt().errors[err.code];
    if (known) return known.endsWith(':') ? `${known} ${err.message}` : known;
  }
  return errorMessage(err);
}
