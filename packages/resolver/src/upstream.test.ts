import { describe, expect, it } from 'vitest';
import { keyRejection, readCapped } from './upstream.js';

function streamed(chunks: string[]): Response {
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[pulled];
      pulled += 1;
      if (chunk === undefined) controller.close();
      else controller.enqueue(new TextEncoder().encode(chunk));
    },
  });
  return new Response(stream);
}

describe('readCapped', () => {
  it('reads a body up to the cap exactly', async () => {
    expect(await readCapped(streamed(['<head>', '<meta>', '</head>']), 19)).toBe(
      '<head><meta></head>',
    );
  });

  it('cuts a body past the cap and stops reading', async () => {
    const chunks = ['<head>pin</head>', 'x'.repeat(100), 'never read'];
    expect(await readCapped(streamed(chunks), 16)).toBe('<head>pin</head>');
    expect(await readCapped(streamed(chunks), 20)).toBe('<head>pin</head>xxxx');
  });
});

describe('keyRejection', () => {
  const body = (code: number, message: string, reason?: unknown) =>
    JSON.stringify({
      error: {
        code,
        message,
        status: code === 400 ? 'INVALID_ARGUMENT' : 'PERMISSION_DENIED',
        ...(reason === undefined
          ? {}
          : { details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason }] }),
      },
    });

  it.each([
    [400, 'API key not valid. Please pass a valid API key.', 'API_KEY_INVALID'],
    [403, 'Places API (New) has not been used…', 'SERVICE_DISABLED'],
    [403, 'This API method requires billing to be enabled.', 'BILLING_DISABLED'],
    [403, 'Requests to this API are blocked.', 'API_KEY_SERVICE_BLOCKED'],
  ])('names the key refusal Google gives as %i %s by its reason', (status, message, reason) => {
    expect(keyRejection(status, body(status, message, reason))).toBe(reason);
  });

  it.each([
    // No body Google wrote (a proxy's page), or one cut short: the status, or the message.
    [403, '<html>Forbidden</html>', 'status_403'],
    [401, '', 'status_401'],
    [400, '{"error":{"message":"API key expired. Please renew the API key.",', 'API_KEY_INVALID'],
    // A place's own errors are left alone.
    [400, body(400, 'Not a valid Place ID: xyz'), undefined],
    [400, body(400, 'FieldMask is a required parameter.'), undefined],
    [404, body(404, 'Requested entity was not found.', 'NOT_FOUND'), undefined],
    [500, body(500, 'Internal error encountered.'), undefined],
  ])('reads %i %s as %s', (status, text, expected) => {
    expect(keyRejection(status, text)).toBe(expected);
  });

  it("never passes on a reason that is not one of Google's names (it reaches logs and terminals)", () => {
    expect(keyRejection(403, body(403, 'no', '\u001b[31mred'))).toBe('status_403');
    expect(keyRejection(403, body(403, 'no', 'A'.repeat(65)))).toBe('status_403');
    expect(keyRejection(403, body(403, 'no', 42))).toBe('status_403');
    expect(
      keyRejection(403, JSON.stringify({ error: { details: [null, 'x', { reason: 'OK_NAME' }] } })),
    ).toBe('OK_NAME');
  });
});
