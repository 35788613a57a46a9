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
