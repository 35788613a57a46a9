/**
 * The backend's internal API as one request sees it: request id and acting user already bound,
 * so the per-service call functions (`api/*.api.ts`) take only their own parameters.
 */
import type { z } from 'zod';
import type { CallContext, CallOptions, UpstreamClient } from './client.ts';

export interface BoundUpstream {
  call<S extends z.ZodType>(opts: CallOptions<S>): Promise<z.infer<S>>;
}

export function bindUpstream(client: Pick<UpstreamClient, 'call'>, ctx: CallContext): BoundUpstream {
  return { call: (opts) => client.call(ctx, opts) };
}

/** A write's validated answer, and whether the backend replayed a stored one (Idempotent-Replayed). */
export interface Written<T> {
  data: T;
  replayed: boolean;
}

/** Call a write and learn whether the backend performed it now or replayed an earlier answer. */
export async function written<S extends z.ZodType>(up: BoundUpstream, opts: CallOptions<S>): Promise<Written<z.infer<S>>> {
  let replayed = false;
  const data = await up.call({
    ...opts,
    onIdempotentReplay: () => {
      replayed = true;
    },
  });
  return { data, replayed };
}
