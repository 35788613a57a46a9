/**
 * The admin server: a Fastify instance of its own on ADMIN_HOST:ADMIN_PORT, next to the public
 * one and never exposed publicly (docs/operations.md, "Admin server and metrics").
 *
 * | Route              | Token (when ADMIN_TOKEN is set) | Without ADMIN_TOKEN                  |
 * | ------------------ | ------------------------------- | ------------------------------------ |
 * | GET /livez         | no                              | open                                 |
 * | GET /metrics       | no (scraped by Prometheus)      | open                                 |
 * | GET /kill-switch   | yes                             | open (on loopback: from this host)   |
 * | PUT /kill-switch   | yes                             | only when ADMIN_HOST is loopback,    |
 * |                    |                                 | from this host (fromThisHost)        |
 * | POST /sandbox/reset| yes (only with the sandbox)     | as PUT /kill-switch                  |
 * | GET /audit         | yes                             | as GET /kill-switch                  |
 *
 * Errors use the contract's envelope with codes of the closed set.
 */
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { z } from 'zod';
import type { Config } from '../config.ts';
import { ApiError } from '../errors/api-error.ts';
import { installErrorHandling } from '../http/error-handler.ts';
import { acceptJsonBodiesOnly } from '../http/json-bodies.ts';
import { genReqId } from '../http/request-id.ts';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../config.ts';
import { requestTimeoutOptions } from '../http/request-timeout.ts';
import requestId from '../plugins/request-id.ts';
import { KILL_MODES, KillSwitchUnavailableError, type KillSwitch } from '../killswitch/index.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { isLoopbackHost, parseAdminTokens, tokenMatches } from './tokens.ts';
import type { AuditTrail } from '../audit/trail.ts';
import { killSwitchRecord } from '../audit/record.ts';
import { traceIdIn } from '../audit/trace.ts';
import { toApiError } from '../errors/translate.ts';

export interface AdminServices {
  metrics: Metrics;
  killSwitch: KillSwitch;
  /** Records every kill-switch change and answers GET /audit (docs/audit.md); absent in some tests. */
  audit?: AuditTrail;
  /** The built-in sandbox of `npm start`, when it runs one: `POST /sandbox/reset` puts it back to its seed. */
  sandbox?: { reset(): { now: number } };
}

export type AdminConfig = Pick<Config, 'ADMIN_HOST' | 'ADMIN_TOKEN'> & Partial<Pick<Config, 'REQUEST_TIMEOUT_MS'>>;

export interface AdminBuildOptions {
  /** Logger options (tests pass `false`). */
  logger?: FastifyServerOptions['logger'];
  /** A logger to share, e.g. the main app's (server.ts). */
  loggerInstance?: FastifyBaseLogger;
}

export const ADMIN_BODY_LIMIT_BYTES = 4 * 1024;
export const ADMIN_REALM = 'openpm-admin';

const KillSwitchBody = z.object({
  mode: z.enum(['off', 'all', 'writes']),
  reason: z.string().trim().min(1).max(500),
  by: z.string().trim().min(1).max(100).optional(),
});

const AuditFilter = z.strictObject({
  user_id: z.string().min(1).max(200).optional(),
  key_id: z.string().min(1).max(200).optional(),
  action: z.enum(['place_order', 'publish_opinion', 'back_opinion', 'kill_switch']).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(50),
});

export async function buildAdminApp(services: AdminServices, config: AdminConfig, opts: AdminBuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    ...(opts.loggerInstance !== undefined ? { loggerInstance: opts.loggerInstance } : { logger: opts.logger ?? false }),
    bodyLimit: ADMIN_BODY_LIMIT_BYTES,
    genReqId,
    // Prometheus scrapes every few seconds: no per-request lines; changes are logged below.
    logController: new LogController({ disableRequestLogging: true }),
    routerOptions: { ignoreTrailingSlash: true },
    // On a pod address every pod can reach it: a request that never ends must not hold a connection.
    ...requestTimeoutOptions(config.REQUEST_TIMEOUT_MS ?? DEFAULT_REQUEST_TIMEOUT_MS),
  });
  installErrorHandling(app);
  acceptJsonBodiesOnly(app);
  await app.register(requestId);
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  const tokens = parseAdminTokens(config.ADMIN_TOKEN);
  const changesAllowedWithoutToken = isLoopbackHost(config.ADMIN_HOST);
  /** Throws unless the request may read (`read`) or change (`write`) the kill switch. */
  const authorize = (request: FastifyRequest, access: 'read' | 'write'): void => {
    if (tokens.length === 0) {
      if (changesAllowedWithoutToken && !fromThisHost(request)) {
        throw new ApiError('FORBIDDEN', {
          message: 'Without ADMIN_TOKEN the kill switch answers only requests addressed to this host, not from a web page.',
        });
      }
      if (access === 'read' || changesAllowedWithoutToken) return;
      throw new ApiError('FORBIDDEN', {
        message: 'Changing the kill switch needs ADMIN_TOKEN when the admin server listens beyond loopback.',
        details: { admin_host: config.ADMIN_HOST },
      });
    }
    if (!tokenMatches(request.headers.authorization, tokens)) {
      throw new ApiError('UNAUTHORIZED', {
        message: 'A valid admin token is required (Authorization: Bearer <ADMIN_TOKEN>).',
        headers: { 'www-authenticate': `Bearer realm="${ADMIN_REALM}"` },
      });
    }
  };

  app.get('/livez', async () => ({ status: 'ok' }));

  app.get('/metrics', async (_request, reply) => {
    const text = await services.metrics.registry.metrics();
    return reply.type(services.metrics.registry.contentType).send(text);
  });

  app.get('/kill-switch', async (request) => {
    authorize(request, 'read');
    return services.killSwitch.current();
  });

  const changeKillSwitch = async (request: FastifyRequest) => {
    const parsed = KillSwitchBody.safeParse(request.body ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = String(issue?.path[0] ?? 'body');
      const message =
        field === 'mode'
          ? `mode: one of ${KILL_MODES.join(', ')}.`
          : field === 'reason'
            ? 'reason: say why, 1 to 500 characters.'
            : field === 'by'
              ? 'by: 1 to 100 characters.'
              : 'The body must be a JSON object {mode, reason, by?}.';
      throw new ApiError('INVALID_ARGUMENT', { message, details: { field } });
    }
    const { mode, reason } = parsed.data;
    const by = parsed.data.by ?? `admin API from ${request.ip}`;
    try {
      const state = await services.killSwitch.set(mode, by, reason);
      request.log.warn({ killSwitch: state, remote: request.ip }, 'kill switch changed through the admin API');
      return state;
    } catch (err) {
      if (err instanceof KillSwitchUnavailableError) {
        request.log.error({ err: err.message, mode, by, reason }, 'kill switch change failed');
        throw new ApiError('INTERNAL', { message: `The kill switch was not changed: ${err.message}.`, cause: err });
      }
      throw err;
    }
  };

  app.put('/kill-switch', async (request) => {
    authorize(request, 'write');
    // Every authorised attempt leaves one audit record, whatever its outcome (docs/audit.md).
    const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<string, unknown>;
    const text = (v: unknown) => (typeof v === 'string' ? v.slice(0, 500) : null);
    const record = (outcome: 'executed' | 'refused' | 'failed', errorCode: string | null, by: string | null) =>
      services.audit?.write(
        killSwitchRecord({
          time: services.audit.now(),
          requestId: request.id,
          traceId: traceIdIn(typeof request.headers.traceparent === 'string' ? request.headers.traceparent : undefined),
          mode: KILL_MODES.find((m) => m === body['mode']) ?? null,
          by,
          reason: text(body['reason']),
          remote: request.ip,
          outcome,
          errorCode,
        }),
      );
    try {
      const state = await changeKillSwitch(request);
      record('executed', null, state.by);
      return state;
    } catch (err) {
      const apiError = toApiError(err);
      record(apiError.status < 500 ? 'refused' : 'failed', apiError.code, text(body['by']));
      throw apiError;
    }
  });

  app.get('/audit', async (request) => {
    authorize(request, 'read');
    const audit = services.audit;
    if (audit === undefined) throw new ApiError('NOT_FOUND');
    const parsed = AuditFilter.safeParse(request.query ?? {});
    if (!parsed.success) {
      const field = String(parsed.error.issues[0]?.path[0] ?? 'query');
      throw new ApiError('INVALID_ARGUMENT', {
        message: `${field}: expected user_id, key_id, action (place_order, publish_opinion, back_opinion, kill_switch) or limit (1 to 1000).`,
        details: { field },
      });
    }
    const { user_id, key_id, action, limit } = parsed.data;
    const records = await audit.query({
      limit,
      ...(user_id !== undefined && { userId: user_id }),
      ...(key_id !== undefined && { keyId: key_id }),
      ...(action !== undefined && { action }),
    });
    return { source: audit.storeKind, records };
  });

  const sandbox = services.sandbox;
  if (sandbox !== undefined) {
    // The sandbox's world back to its seed without a restart (docs/contract/sandbox.md#reset).
    app.post('/sandbox/reset', async (request) => {
      authorize(request, 'write');
      const result = sandbox.reset();
      request.log.warn({ remote: request.ip }, 'sandbox reset to its seed through the admin API');
      return { reset: true, now: new Date(result.now).toISOString() };
    });
  }

  return app;
}

/**
 * Whether a request to a loopback admin server without a token came from this host, as an
 * operator's command does, rather than from a web page: a page the operator's browser opens
 * can reach 127.0.0.1 by rebinding its own name to it (DNS rebinding), but its requests still
 * name that foreign host in `Host` and carry an `Origin`, which a command line never sends.
 */
export function fromThisHost(request: Pick<FastifyRequest, 'headers'>): boolean {
  const { host, origin } = request.headers;
  if (origin !== undefined) return false;
  return host !== undefined && isLoopbackHost(host.replace(/:\d*$/, ''));
}
