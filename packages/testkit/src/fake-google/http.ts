import type { ServerResponse } from 'node:http';

/** Writes a JSON answer (the Places API's bodies). */
export function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
  response.end(JSON.stringify(body));
}

/** Writes an HTML (or `headers`' content type) answer with its exact `content-length`. */
export function send(
  response: ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, {
    'content-type': 'text/html; charset=UTF-8',
    'content-length': String(Buffer.byteLength(body)),
    ...headers,
  });
  response.end(body);
}

/** Writes a redirect with `location` and Google's small "Moved" body. */
export function redirect(response: ServerResponse, location: string, status = 302): void {
  const escaped = location.replaceAll('&', '&amp;').replaceAll('"', '&quot;');
  send(
    response,
    status,
    `<HTML><HEAD><meta http-equiv="content-type" content="text/html;charset=utf-8">\n<TITLE>${status} Moved</TITLE></HEAD><BODY>\n<H1>${status} Moved</H1>\nThe document has moved\n<A HREF="${escaped}">here</A>.\r\n</BODY></HTML>\r\n`,
    { location },
  );
}

const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** Google's own error page (`Error 503 (Service Unavailable)!!1`), with no numbers in it. */
export function errorPage(status: number): string {
  const reason = REASONS[status] ?? 'Error';
  return `<!DOCTYPE html>\n<html lang=en>\n  <meta charset=utf-8>\n  <title>Error ${status} (${reason})!!1</title>\n  <a href=//www.google.com/><span id=logo aria-label=Google></span></a>\n  <p><b>${status}.</b> <ins>That’s an error.</ins>\n  <p>The server cannot process the request right now.  <ins>That’s all we know.</ins>\n`;
}

/** The gRPC status name Google's APIs pair with an HTTP status. */
const API_STATUS: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'NOT_IMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/** The message Google's APIs give with a status when nothing more specific applies. */
const API_MESSAGE: Readonly<Record<number, string>> = {
  403: 'The caller does not have permission',
  404: 'Requested entity was not found.',
  500: 'Internal error encountered.',
  503: 'The service is currently unavailable.',
  504: 'The request timed out. Please try again.',
};

/** A Google API error body `{ error: { code, message, status } }` (plus `details` when given). */
export function apiError(
  response: ServerResponse,
  code: number,
  message = API_MESSAGE[code] ?? 'The service is currently unavailable.',
  details?: unknown[],
): void {
  const status = API_STATUS[code] ?? (code >= 500 ? 'INTERNAL' : 'UNKNOWN');
  json(response, code, { error: { code, message, status, ...(details ? { details } : {}) } });
}
