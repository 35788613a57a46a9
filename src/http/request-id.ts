/**
 * Request ids: a caller's (or the ingress's) `X-Request-Id` is kept when it is a sane token,
 * otherwise a fresh UUID. The id is echoed on every response, logged on every line and passed
 * to the backend, so one request can be followed across all three.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { holdsSecret } from './logging.ts';

export const REQUEST_ID_HEADER = 'x-request-id';
const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function genReqId(req: IncomingMessage): string {
  const incoming = req.headers[REQUEST_ID_HEADER];
  // An id shaped like a key or a confirm token would be echoed, logged and sent on as it is.
  return typeof incoming === 'string' && SANE_ID.test(incoming) && !holdsSecret(incoming) ? incoming : randomUUID();
}
