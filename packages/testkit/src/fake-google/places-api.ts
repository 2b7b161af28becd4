import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LatLng } from '../takeout/index.js';
import { apiError, json } from './http.js';
import { cidFromPlaceId } from './place-id.js';
import type { PlaceBehaviour } from './server.js';
import type { ThrottleMode } from './throttle.js';

/** How the Places API (New) answers for one place, apart from the place page. */
export interface PlacesApiBehaviour {
  /** Answer with this status and Google's error body for it (e.g. 500, 503, 403). */
  status?: number;
  /** Answer 404 `NOT_FOUND`, as for an id Google no longer knows. */
  notFound?: boolean;
}

/**
 * The Places API failures after which a lookup must still find the place on its page: the id
 * Google no longer knows (404) and the quota refusal (429), each with its status as a label. The
 * resolver's, the API's and the CLI's tests run the same cases against the fake.
 */
export const PLACES_API_FAILURES: ReadonlyArray<readonly [status: string, PlacesApiBehaviour]> = [
  ['404', { notFound: true }],
  ['429', { status: 429 }],
];

/** What the Places API needs to know about the fake's state. */
export interface PlacesApiContext {
  apiKey: string;
  behaviourOf(cid: string): PlaceBehaviour;
  coordinatesFor(cid: string): LatLng;
  throttleAll(): ThrottleMode | undefined;
}

/**
 * A key the fake knows but whose project has the Places API (New) turned off: answered 403
 * `SERVICE_DISABLED`, as Google answers a key whose project never enabled the API.
 */
export const FAKE_GOOGLE_DISABLED_KEY = 'fake-google-maps-key-places-api-disabled';

/** Google's answer to a key that does not exist (or expired): 400 `API_KEY_INVALID`. */
function invalidKey(response: ServerResponse): void {
  apiError(response, 400, 'API key not valid. Please pass a valid API key.', [
    {
      '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
      reason: 'API_KEY_INVALID',
      domain: 'googleapis.com',
      metadata: { service: 'places.googleapis.com' },
    },
    {
      '@type': 'type.googleapis.com/google.rpc.LocalizedMessage',
      locale: 'en-US',
      message: 'API key not valid. Please pass a valid API key.',
    },
  ]);
}

/** Google's answer to a key whose project has not enabled the Places API (New). */
function serviceDisabled(response: ServerResponse): void {
  const message =
    'Places API (New) has not been used in project 000000000000 before or it is disabled. Enable it by visiting https://console.developers.google.com/apis/api/places.googleapis.com/overview?project=000000000000 then retry. If you enabled this API recently, wait a few minutes for the action to propagate to our systems and retry.';
  apiError(response, 403, message, [
    {
      '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
      reason: 'SERVICE_DISABLED',
      domain: 'googleapis.com',
      metadata: { service: 'places.googleapis.com', consumer: 'projects/000000000000' },
    },
  ]);
}

/** What a hanging answer awaits: no timer, so nothing but the closing server ends the request. */
export const NEVER = new Promise<void>(() => undefined);

/** Google's answer when the project's quota is used up. */
function exhausted(response: ServerResponse): void {
  apiError(
    response,
    429,
    "Quota exceeded for quota metric 'GetPlace requests' and limit 'GetPlace requests per minute' of service 'places.googleapis.com' for consumer 'project_number:000000000000'.",
    [
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'RATE_LIMIT_EXCEEDED',
        domain: 'googleapis.com',
        metadata: {
          service: 'places.googleapis.com',
          quota_metric: 'places.googleapis.com/get_place_requests',
          quota_limit: 'GetPlaceRequestsPerMinutePerProject',
          consumer: 'projects/000000000000',
        },
      },
      {
        '@type': 'type.googleapis.com/google.rpc.Help',
        links: [
          {
            description: 'Request a higher quota limit.',
            url: 'https://cloud.google.com/docs/quotas/help/request_increase',
          },
        ],
      },
    ],
  );
}

/** Answers a throttle mode that applies to the API (429, 503); false for page-only modes. */
function throttled(response: ServerResponse, mode: ThrottleMode | undefined): boolean {
  if (mode === 429) exhausted(response);
  else if (mode === 503) apiError(response, 503);
  else return false;
  return true;
}

/**
 * `GET /v1/places/{id}` of the Places API (New): checks the key and the field mask as Google does,
 * then answers the place's location (and `id` when asked), or the error the place is set up for.
 */
export async function answerPlacesApi(
  context: PlacesApiContext,
  request: IncomingMessage,
  response: ServerResponse,
  placeId: string,
): Promise<void> {
  const key = request.headers['x-goog-api-key'];
  if (key === FAKE_GOOGLE_DISABLED_KEY) {
    serviceDisabled(response);
    return;
  }
  if (key !== context.apiKey) {
    invalidKey(response);
    return;
  }
  if (throttled(response, context.throttleAll())) return;
  const mask = request.headers['x-goog-fieldmask'];
  if (typeof mask !== 'string' || mask.trim() === '') {
    apiError(
      response,
      400,
      'FieldMask is a required parameter. See https://cloud.google.com/apis/docs/system-parameters on how to provide it.',
    );
    return;
  }
  const cid = cidFromPlaceId(placeId);
  if (!cid) {
    apiError(response, 400, `Not a valid Place ID: ${placeId}`);
    return;
  }
  const behaviour = context.behaviourOf(cid);
  if (behaviour.hang) return NEVER;
  if (behaviour.delayMs) await sleep(behaviour.delayMs);
  if (throttled(response, behaviour.throttle)) return;
  const status = behaviour.placesApi?.status ?? behaviour.status;
  if (status) {
    apiError(response, status);
    return;
  }
  if (behaviour.placesApi?.notFound || behaviour.generic || behaviour.genericName !== undefined) {
    apiError(response, 404);
    return;
  }
  const fields = mask.split(',').map((name) => name.trim());
  const point = context.coordinatesFor(cid);
  const body: Record<string, unknown> = {};
  if (fields.includes('*') || fields.includes('id')) body.id = placeId;
  if (fields.includes('*') || fields.includes('location')) {
    body.location = { latitude: point.lat, longitude: point.lng };
  }
  json(response, 200, body);
}
