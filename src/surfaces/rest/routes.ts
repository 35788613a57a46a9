/**
 * The REST surface: one Fastify route per operation, all under /open/v1. The adapter only
 * translates transport: it gathers the parameters (path, query, body) under their REST names,
 * negotiates the language from Accept-Language, and hands the call to the invocation pipeline
 * (src/operations/invoke.ts), which applies limits, scope, the kill switch, validation and the
 * operation itself. Errors leave through the app's error handler as the contract envelope.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../../errors/api-error.ts';
import { requireCaller } from '../../auth/plugin.ts';
import { negotiateAcceptLanguage } from '../../i18n/accept-language.ts';
import { limitClassOf, negotiatesLanguage, type Operation } from '../../operations/operation.ts';
import type { Pipeline } from '../../operations/invoke.ts';
import { echoed, pathParameterElsewhere } from '../../operations/validate-input.ts';
import { routerPath } from '../../http/paths.ts';
import { refusalMeter } from '../refusal-meter.ts';

export interface RestRoutesOptions {
  pipeline: Pipeline;
  operations: readonly Operation[];
}

export async function restRoutes(app: FastifyInstance, opts: RestRoutesOptions): Promise<void> {
  const { pipeline } = opts;
  const refusals = refusalMeter(pipeline);
  // The router ignores a trailing slash, so `/topics/` would answer the list: an empty path id
  // (a trailing or doubled slash) names no resource and is 404 (docs/contract/errors.md#request-errors).
  // Callback style, as every hook that waits for nothing (docs/performance.md, kept optimisations).
  app.addHook('onRequest', (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    // Read as the router reads it: an absolute-form target (`GET http://host/open/v1/…`) is no
    // doubled slash.
    const path = routerPath(request.url);
    if (path.endsWith('/') || path.includes('//')) done(new ApiError('NOT_FOUND'));
    else done();
  });
  for (const op of opts.operations) {
    const integerFields = integerFieldsOf(op.input);
    app.route({
      method: op.rest.method,
      url: toFastifyPath(op.rest.path),
      // A request refused before the pipeline counts as a call of this operation.
      errorHandler: refusals.errorHandler(limitClassOf(op)),
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const caller = requireCaller(request);
        const raw = gatherInput(op, request, integerFields);
        refusals.counted(request);
        const lang = negotiateAcceptLanguage(request.headers['accept-language']);
        const result = await pipeline.invoke(op, raw, {
          caller,
          requestId: request.id,
          log: request.log,
          surface: 'rest',
          language: lang,
          onMetered: (headers) => reply.headers(headers),
          ...(typeof request.headers.traceparent === 'string' && { traceparent: request.headers.traceparent }),
        });
        if (negotiatesLanguage(op)) {
          reply.header('content-language', result.lang);
          const vary = reply.getHeader('vary');
          reply.header('vary', vary === undefined ? 'Accept-Language' : `${String(vary)}, Accept-Language`);
        }
        return reply.code(result.status).send(result.body);
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
  // Path parameters come from the path only: the same name in the query or body is refused as
  // unknown, so neither can redirect the call nor be silently dropped.
  const fromPath = (name: string) => Object.hasOwn(params, name);
  if (op.rest.method === 'GET') {
    const badlyEncoded = badlyEncodedParameter(request.url);
    if (badlyEncoded !== null) {
      const name = echoed(badlyEncoded);
      throw new ApiError('INVALID_ARGUMENT', { message: `${name} is not validly percent-encoded.`, details: { field: name } });
    }
    const query = (request.query ?? {}) as Record<string, string | string[]>;
    // No prototype: a parameter named `__proto__` is an own key, refused as unknown like any other.
    const out: Record<string, unknown> = Object.create(null);
    for (const [k, v] of Object.entries(query)) {
      // A repeated parameter is ambiguous; take none of it rather than guess.
      if (Array.isArray(v)) {
        const name = echoed(k);
        throw new ApiError('INVALID_ARGUMENT', { message: `${name} must be given once.`, details: { field: name } });
      }
      if (fromPath(k)) throw pathParameterElsewhere(op, k);
      if (k === '') throw new ApiError('INVALID_ARGUMENT', { message: 'A query parameter has no name.', details: { field: 'query' } });
      out[k] = integerFields.has(k) && /^-?\d{1,15}$/.test(v) ? Number(v) : v;
    }
    return { ...out, ...params };
  }
  // A write reads its input from the body alone: a query parameter would otherwise be dropped
  // without a word (an amount sent there would preview the default stake).
  const stray = Object.keys((request.query ?? {}) as Record<string, unknown>)[0];
  if (stray !== undefined) {
    const name = stray === '' ? 'query' : echoed(stray);
    throw new ApiError('INVALID_ARGUMENT', {
      message: `${name} is not a known parameter; this operation reads its input from the JSON body.`,
      details: { field: name },
    });
  }
  const body = request.body;
  if (body === undefined || body === null) return { ...params };
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError('INVALID_ARGUMENT', { message: 'The request body must be a JSON object.', details: { field: 'body' } });
  }
  for (const k of Object.keys(body)) if (fromPath(k)) throw pathParameterElsewhere(op, k);
  return { ...(body as Record<string, unknown>), ...params };
}

/**
 * The query's parameter whose name or value is not validly percent-encoded (`%zz`, or bytes
 * that are not UTF-8), or null. The query parser keeps such text as it came, which would search
 * for `%zz` or filter on it; the path answers the same mistake 400, and so does the query.
 * Named by its parameter when the name itself decodes, else `query`.
 */
function badlyEncodedParameter(url: string): string | null {
  const start = url.indexOf('?');
  if (start < 0 || !url.includes('%', start)) return null;
  for (const pair of url.slice(start + 1).split('&')) {
    if (!pair.includes('%') || decodes(pair)) continue;
    const name = pair.split('=', 1)[0] ?? '';
    return decodes(name) && name !== '' ? decodeURIComponent(name.replaceAll('+', ' ')) : 'query';
  }
  return null;
}

function decodes(text: string): boolean {
  try {
    decodeURIComponent(text.replaceAll('+', ' '));
    return true;
  } catch {
    return false;
  }
}

/** Query strings are text; integer parameters are converted strictly before validation. */
function integerFieldsOf(schema: z.ZodType): ReadonlySet<string> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, { type?: unknown }> };
  const out = new Set<string>();
  for (const [k, v] of Object.entries(json.properties ?? {})) if (v.type === 'integer') out.add(k);
  return out;
}
