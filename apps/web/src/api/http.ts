/**
 * The one way the page talks to the API, as the seed's section 7 says: cookies always included,
 * a JSON content type only when there is a body, and any non-OK answer turned into an Error whose
 * message is `status: response text` (or the status text when the body is empty).
 */
export async function requestJson<T>(
  url: string,
  method: 'GET' | 'POST',
  body?: unknown,
): Promise<T> {
  const init: RequestInit = { method, credentials: 'include' };
  if (body !== undefined) {
    init.headers = { 'Content-Type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  const response = await fetch(url, init);
  if (!response.ok) {
    const text = await response.text();
    throw new Error(`${response.status}: ${text || response.statusText}`);
  }
  return (await response.json()) as T;
}
