/**
 * The API's refusals as the callers read them: every refusal's body is
 * `{ "error": { "code", "message" } }` (see `ErrorAnswer` in `./routes`).
 */

/** A lookup batch of which no link got an answer from Google: the server cannot reach it (503). */
export const GOOGLE_UNREACHABLE = 'google_unreachable';

/**
 * The code and sentence of a refusal's body text; null when the body is not the API's error shape
 * (a proxy's page, an empty body, a code that is not a non-empty string). A missing sentence is `''`.
 */
export function readErrorBody(text: string): { code: string; message: string } | null {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  if (typeof error?.code !== 'string' || error.code === '') return null;
  return { code: error.code, message: typeof error.message === 'string' ? error.message : '' };
}
