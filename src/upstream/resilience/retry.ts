/**
 * When an upstream call may be tried again, and how long to wait first.
 *
 * Only idempotent reads (GET) are retried, and only when the failure says the request most
 * likely never reached a healthy backend: a connection that could not be made or was cut
 * before an answer, or 502/503/504 from the backend or a proxy in front of it. Never a POST:
 * quotes are cheap to ask again by the caller, and writes are made safe by their
 * Idempotency-Key, not by blind retries. Never after the whole-call deadline fired: the budget
 * is spent. Every wait and every attempt stays inside the one deadline of the call.
 */
import type { Deadline } from '../exchange.ts';

export const RETRY_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/** Transport error codes (Node and undici) that mean "no answer came back; try again". */
const RETRY_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_CLOSED',
]);

export function isRetryableError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && RETRY_CODES.has(code)) return true;
  // undici wraps some connection failures; look one level down.
  const cause = (err as { cause?: unknown } | null)?.cause;
  const inner = (cause as { code?: unknown } | null)?.code;
  return typeof inner === 'string' && RETRY_CODES.has(inner);
}

export interface BackoffOptions {
  /** First wait, before jitter (ms). */
  baseMs: number;
  /** No single wait is longer than this (ms). */
  maxMs: number;
  random?: () => number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 50, maxMs: 400 };

/**
 * Wait before retry number `attempt` (0 for the first retry): exponential, with "equal
 * jitter" (half fixed, half random) so that replicas hitting the same outage spread out.
 */
export function backoffMs(attempt: number, o: BackoffOptions = DEFAULT_BACKOFF): number {
  const ceiling = Math.min(o.maxMs, o.baseMs * 2 ** attempt);
  const r = (o.random ?? Math.random)();
  return Math.round(ceiling / 2 + (ceiling / 2) * r);
}

/** Sleep, but wake (resolving false) as soon as the call's deadline fires. */
export function sleepUnless(ms: number, deadline: Pick<Deadline, 'reason' | 'onExpire'>): Promise<boolean> {
  if (deadline.reason !== null) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      stopWatching();
      resolve(true);
    }, ms);
    const stopWatching = deadline.onExpire(() => {
      clearTimeout(timer);
      resolve(false);
    });
  });
}
