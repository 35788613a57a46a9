/**
 * The request logger: JSON lines, with every secret a client may send removed before a line is
 * written, at every level. Secrets travel in three places:
 *
 * - headers (`Authorization`, `Cookie`, the backend's service token): pino's `redact` paths,
 *   for any logged object that carries them;
 * - URLs: a key or a confirm token pasted into a query string (`?api_key=opk_…`). The request
 *   serializer rewrites the URL it logs;
 * - free text: Fastify writes the URL into some messages and error messages (an unknown
 *   route, a bad request line). The `logMethod` hook rewrites message strings and the message
 *   and stack of a logged error.
 *
 * All of it runs per request, so every rewrite first makes one cheap test and leaves text
 * without anything secret-shaped untouched (no allocation).
 */
import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import type { Config } from '../config.ts';

/** Query parameters whose values are secrets whatever they hold. */
export const SECRET_QUERY_PARAMS = ['api_key', 'key', 'token', 'access_token', 'confirm_token'] as const;

export const REDACTED = '[redacted]';

const SECRET_PARAM_RE = new RegExp(`([?&;](?:${SECRET_QUERY_PARAMS.join('|')})=)[^&;#\\s"'<>]*`, 'gi');
/** A key (docs/contract/auth.md#key-format) or a confirm token (`ct1.<kid>.<payload>.<mac>`), wherever it appears. */
const KEY_SHAPE_RE = /opk_(?:live|test)_[A-Za-z0-9_]+/g;
const TOKEN_SHAPE_RE = /ct1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g;
/** The one test every string passes: nothing of the three shapes can match without it. */
const MAYBE_SECRET_RE = /=|opk_|ct1\./;

/** The text with every secret query value, key and confirm token replaced by `[redacted]`. */
export function redactText(text: string): string {
  if (!MAYBE_SECRET_RE.test(text)) return text;
  return text.replace(SECRET_PARAM_RE, `$1${REDACTED}`).replace(KEY_SHAPE_RE, REDACTED).replace(TOKEN_SHAPE_RE, REDACTED);
}

/** Header paths redacted in any logged object: top level, under `req`/`res`, or one level deeper. */
const SECRET_HEADERS = ['authorization', 'cookie', 'set-cookie', 'x-service-token', 'proxy-authorization'];
export const REDACT_PATHS: string[] = [
  ...SECRET_HEADERS.flatMap((h) => [`headers["${h}"]`, `req.headers["${h}"]`, `res.headers["${h}"]`, `*.headers["${h}"]`]),
  'confirm_token',
  '*.confirm_token',
  'body.confirm_token',
  '*.body.confirm_token',
];

/** Fastify's request serializer, with the URL redacted. */
function serializeRequest(req: FastifyRequest): Record<string, unknown> {
  return {
    method: req.method,
    url: redactText(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/** An error whose message or stack held a secret: a copy of the same class without it. */
function scrubError(err: Error): Error {
  const message = redactText(err.message);
  const stack = err.stack === undefined ? undefined : redactText(err.stack);
  if (message === err.message && stack === err.stack) return err;
  const copy = Object.assign(Object.create(Object.getPrototypeOf(err) as object) as Error, err);
  Object.defineProperty(copy, 'message', { value: message, enumerable: false, writable: true, configurable: true });
  Object.defineProperty(copy, 'stack', { value: stack, enumerable: false, writable: true, configurable: true });
  return copy;
}

function scrubArg(arg: unknown): unknown {
  if (typeof arg === 'string') return redactText(arg);
  if (arg instanceof Error) return scrubError(arg);
  if (arg !== null && typeof arg === 'object') {
    const err = (arg as { err?: unknown }).err;
    if (err instanceof Error) {
      const scrubbed = scrubError(err);
      if (scrubbed !== err) return { ...arg, err: scrubbed };
    }
    const msg = (arg as { msg?: unknown }).msg;
    if (typeof msg === 'string' && redactText(msg) !== msg) return { ...arg, msg: redactText(msg) };
  }
  return arg;
}

type LogFn = (...args: unknown[]) => void;

/** JSON logs with keys and tokens redacted wherever they can appear; `stream` is for tests. */
export function loggerOptions(config: Pick<Config, 'LOG_LEVEL'>, stream?: { write(line: string): void }): FastifyServerOptions['logger'] {
  return {
    level: config.LOG_LEVEL,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: { req: serializeRequest },
    hooks: {
      logMethod(this: unknown, args: unknown[], method: LogFn) {
        for (let i = 0; i < args.length; i += 1) args[i] = scrubArg(args[i]);
        method.apply(this, args);
      },
    },
    ...(stream !== undefined ? { stream } : {}),
  } as FastifyServerOptions['logger'];
}
