/**
 * The REST surface: one Fastify route per operation, all under /open/v1. The adapter gathers
 * the parameters (path, query, body) under their REST names, validates them with the
 * operation's input schema, negotiates the language and runs the operation.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../errors/api-error.ts';
import { forbiddenScope } from '../auth/challenge.ts';
import { hasScope } from '../auth/caller.ts';
import { requireCaller } from '../auth/plugin.ts';
import { negotiateAcceptLanguage } from '../i18n/accept-language.ts';
import { operationContext, type Operation } from '../operations/operation.ts';
import type { Services } from '../services.ts';
import { validateInput } from '../operations/validate-input.ts';
import { limitClassOf } from '../limits/limiter.ts';
import { rateLimited } from '../limits/decision.ts';
import { writesDisabled } from '../operations/writes-gate.ts';

export interface RestRoutesOptions {
  services: Services;
  operations: readonly Operation[];
}

export async function restRoutes(app: FastifyInstance, opts: RestRoutesOptions): Promise<void> {
  for (const op of opts.operations) {
    const integerFields = integerFieldsOf(op.input);
    const limitClass = limitClassOf(op);
    const limiter = opts.services.limiter;
    app.route({
      method: op.rest.method,
      url: toFastifyPath(op.rest.path),
      // Runs after authentication and before the body is read: every request counts, whatever
      // its outcome, except one refused here (DECISIONS.md section 8).
      onRequest:
        limiter === null
          ? []
          : [
              async (request: FastifyRequest, reply: FastifyReply) => {
                const decision = await limiter.check(requireCaller(request).keyId, limitClass);
                if (decision === null) return;
                reply.headers(decision.headers);
                if (!decision.allowed) throw rateLimited(decision);
              },
            ],
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const caller = requireCaller(request);
        if (!hasScope(caller, op.scope)) throw forbiddenScope(op.scope);
        if (op.scope === 'write' && writesDisabled(opts.services)) throw new ApiError('SERVICE_DISABLED');
        const raw = gatherInput(op, request, integerFields);
        const input = validateInput(op, raw, 'rest');
        const lang = negotiateAcceptLanguage(request.headers['accept-language']);
        const ctx = operationContext(opts.services, { caller, lang, requestId: request.id, log: request.log });
        const result = await op.execute(ctx, input);
        if (op.localised) {
          reply.header('content-language', lang);
          const vary = reply.getHeader('vary');
          reply.header('vary', vary === undefined ? 'Accept-Language' : `${String(vary)}, Accept-Language`);
        }
        return reply.code(result.status ?? 200).send(result.body);
      },
    });
  }
}

/** `/topics/{topic_id}` (OpenAPI style, as written in operations) → `/topics/:topic_id`. */
export function toFastifyPath(path: string): string {
  return path.replace(/\{([a-z_]+)\}/g, ':$1');
}

function gatherInput(op: Operation, request: FastifyRequest, integerFields: ReadonlySet<string>): Record<string, unknown> {
  const params = (request.params ?? {}) as Record<string, string>;
  if (op.rest.method === 'GET') {
    const query = (request.query ?? {}) as Record<string, string | string[]>;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(query)) {
      // A repeated parameter is ambiguous; take none of it rather than guess.
      if (Array.isArray(v)) throw new ApiError('INVALID_ARGUMENT', { message: `${k} must be given once.`, details: { field: k } });
      out[k] = integerFields.has(k) && /^-?\d{1,15}$/.test(v) ? Number(v) : v;
    }
    return { ...out, ...params };
  }
  const body = request.body;
  if (body === undefined || body === null) return { ...params };
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError('INVALID_ARGUMENT', { message: 'The request body must be a JSON object.', details: { field: 'body' } });
  }
  // Path parameters win over body fields of the same name, so a body cannot redirect the call.
  return { ...(body as Record<string, unknown>), ...params };
}

/** Query strings are text; integer parameters are converted strictly before validation. */
function integerFieldsOf(schema: z.ZodType): ReadonlySet<string> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, { type?: unknown }> };
  const out = new Set<string>();
  for (const [k, v] of Object.entries(json.properties ?? {})) if (v.type === 'integer') out.add(k);
  return out;
}
