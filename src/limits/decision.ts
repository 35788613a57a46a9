/**
 * From a consumption to what the caller sees: the binding minute window for the X-RateLimit-*
 * headers (the applicable minute window with the least remaining) and, when refused, the
 * delay until every refusing window admits a request again.
 */
import { ApiError } from '../errors/api-error.ts';
import type { Consumption, WindowUse } from './store.ts';
import { DAY_MS, MINUTE_MS, type WindowName } from './windows.ts';

export interface Decision {
  allowed: boolean;
  headers: Record<string, string>;
  /** Whole seconds to wait; 0 when allowed. */
  retryAfter: number;
  /** The window that refused (the one freeing last), when refused. */
  refusedBy: WindowName | null;
}

function freesInMs(u: WindowUse, now: number): number {
  if (u.spec.kind === 'day') return DAY_MS - (now % DAY_MS);
  return u.oldest === null ? 0 : Math.max(0, u.oldest + MINUTE_MS - now);
}

export function decide(c: Consumption): Decision {
  const minutes = c.windows.filter((w) => w.spec.kind === 'minute');
  const binding = minutes.reduce<WindowUse | undefined>(
    (best, w) => (best === undefined || w.spec.limit - w.count < best.spec.limit - best.count ? w : best),
    undefined,
  );
  const headers: Record<string, string> = {};
  if (binding !== undefined) {
    headers['x-ratelimit-limit'] = String(binding.spec.limit);
    headers['x-ratelimit-remaining'] = String(Math.max(0, binding.spec.limit - binding.count));
    headers['x-ratelimit-reset'] = String(Math.ceil(freesInMs(binding, c.now) / 1000));
  }
  if (c.allowed) return { allowed: true, headers, retryAfter: 0, refusedBy: null };

  const refusing = c.windows.filter((w) => w.count >= w.spec.limit);
  let wait = 0;
  let refusedBy: WindowName | null = null;
  for (const w of refusing) {
    const ms = freesInMs(w, c.now);
    if (ms >= wait) {
      wait = ms;
      refusedBy = w.spec.name;
    }
  }
  const retryAfter = Math.max(1, Math.ceil(wait / 1000));
  headers['retry-after'] = String(retryAfter);
  return { allowed: false, headers, retryAfter, refusedBy };
}

export function rateLimited(d: Decision): ApiError {
  return new ApiError('RATE_LIMITED', {
    message: `Rate limit exceeded (${d.refusedBy ?? 'quota'}): retry after ${d.retryAfter} seconds.`,
    details: { retry_after: d.retryAfter, window: d.refusedBy },
    headers: d.headers,
  });
}
