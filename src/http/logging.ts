/**
 * The request logger: JSON lines, with every secret a client may send removed before a line is
 * written, at every level. Secrets travel in three places:
 *
 * - headers (`Authorization`, `Cookie`, the backend's service token) and confirm tokens in
 *   logged objects: `redactFields`, on the object and one level down, rather than pino's
 *   `redact` paths, whose wildcard clones and walks every line's object, the request lines
 *   included (docs/performance.md, kept optimisations);
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
import { destination } from 'pino';
import type { Config } from '../config.ts';
import { currentTraceLogFields } from '../tracing/hooks.ts';

/**
 * Query parameters whose values are secrets whatever they hold; a name is compared lower-cased,
 * once percent-decoded, with `+`, spaces and `-` read as `_` (`Api-Key`, `api%5Fkey`).
 */
export const SECRET_QUERY_PARAMS = ['api_key', 'apikey', 'key', 'token', 'access_token', 'confirm_token'] as const;
const SECRET_PARAM_NAMES: ReadonlySet<string> = new Set(SECRET_QUERY_PARAMS);

export const REDACTED = '[redacted]';

/** A secret parameter written plainly; `_` also matches `-` (`Api-Key`). Encoded names are redactUrl's. */
const SECRET_PARAM_RE = new RegExp(
  `([?&;](?:${SECRET_QUERY_PARAMS.map((n) => n.replaceAll('_', '[-_]')).join('|')})=)[^&;#\\s"'<>]*`,
  'gi',
);
/**
 * A key (docs/contract/auth.md#key-format) or a confirm token (`ct1.<kid>.<payload>.<mac>`),
 * wherever it appears and in any case: what a client pasted may have been case-folded on the way.
 */
const KEY_SHAPE_RE = /opk_(?:live|test)_[A-Za-z0-9_]+/gi;
const TOKEN_SHAPE_RE = /ct1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/gi;
/** The one test every string passes: nothing secret can be found without one of these. */
const MAYBE_SECRET_RE = /=|%|\+|opk_|ct1\./i;
/** A run of URL-ish text that may hide a secret behind an encoding. */
const ENCODED_RUN_RE = /[^\s"'<>]*[%+][^\s"'<>]*/g;

const SECRET_SHAPE_RE = new RegExp(`${KEY_SHAPE_RE.source}|${TOKEN_SHAPE_RE.source}`, 'i');

/** Whether the text holds a key or a confirm token, as written or once percent-decoded. */
export function holdsSecret(text: string): boolean {
  return SECRET_SHAPE_RE.test(text) || (text.includes('%') && SECRET_SHAPE_RE.test(decodeLoosely(text, false)));
}

/**
 * Percent-decoding that never fails (a malformed escape stays as it is), repeated while it
 * changes anything (up to three times: `%256F` is `%6F` is `o`), with `+` read as a space in a
 * query. Only for judging what a logged string holds; the router decodes on its own.
 */
export function decodeLoosely(text: string, plusIsSpace: boolean): string {
  let out = plusIsSpace ? text.replaceAll('+', ' ') : text;
  for (let i = 0; i < 3 && out.includes('%'); i += 1) {
    const next = out.replace(/%([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    if (next === out) break;
    out = next;
  }
  return out;
}

/** A query parameter name as compared with SECRET_QUERY_PARAMS. */
function paramName(raw: string): string {
  return decodeLoosely(raw, true).trim().toLowerCase().replace(/[\s-]/g, '_');
}

/**
 * A URL (or any run of text without spaces) with every part that hides a secret behind an
 * encoding replaced: a path segment, a query name or value, the fragment, each judged once
 * decoded; the value of a secret-named parameter whatever it holds.
 */
export function redactUrl(url: string): string {
  const hash = url.indexOf('#');
  const beforeHash = hash === -1 ? url : url.slice(0, hash);
  const fragment = hash === -1 ? null : url.slice(hash + 1);
  const mark = beforeHash.indexOf('?');
  const path = mark === -1 ? beforeHash : beforeHash.slice(0, mark);
  const query = mark === -1 ? null : beforeHash.slice(mark + 1);
  let out = path
    .split('/')
    .map((segment) => (holdsSecret(segment) ? REDACTED : segment))
    .join('/');
  if (query !== null) {
    const pairs = query.split(/([&;])/).map((part, i) => {
      if (i % 2 === 1 || part === '') return part; // a separator
      const eq = part.indexOf('=');
      const name = eq === -1 ? part : part.slice(0, eq);
      const value = eq === -1 ? null : part.slice(eq + 1);
      const safeName = holdsSecret(decodeLoosely(name, true)) ? REDACTED : name;
      if (value === null) return safeName;
      const secret = SECRET_PARAM_NAMES.has(paramName(name)) || holdsSecret(decodeLoosely(value, true));
      return `${safeName}=${secret && value !== '' ? REDACTED : value}`;
    });
    out += `?${pairs.join('')}`;
  }
  if (fragment !== null) out += `#${holdsSecret(decodeLoosely(fragment, true)) ? REDACTED : fragment}`;
  return out;
}

/**
 * The text with every secret query value, key and confirm token replaced by `[redacted]`,
 * whether written plainly or behind percent-encoding, `+` or another letter case.
 */
export function redactText(text: string): string {
  if (!MAYBE_SECRET_RE.test(text)) return text;
  const plain = text.replace(SECRET_PARAM_RE, `$1${REDACTED}`).replace(KEY_SHAPE_RE, REDACTED).replace(TOKEN_SHAPE_RE, REDACTED);
  if (!plain.includes('%') && !plain.includes('+')) return plain;
  return plain.replace(ENCODED_RUN_RE, (run) => redactUrl(run));
}

/** Headers whose values are secrets, wherever a logged object carries a `headers` map. */
const SECRET_HEADERS: ReadonlySet<string> = new Set(['authorization', 'cookie', 'set-cookie', 'x-service-token', 'proxy-authorization']);

/** A logged value's own property, without running a getter (a Fastify request's `headers` is one). */
function own(value: object, key: string): unknown {
  return Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}

/** `headers` with every secret header censored, or the same object when it holds none. */
function censorHeaders(headers: unknown): unknown {
  if (headers === null || typeof headers !== 'object') return headers;
  let copy: Record<string, unknown> | null = null;
  for (const name of Object.keys(headers)) {
    const value = (headers as Record<string, unknown>)[name];
    // Any other header is logged as sent, unless a key or token hides in it (`Host: opk_…`).
    const censored = SECRET_HEADERS.has(name.toLowerCase()) ? REDACTED : typeof value === 'string' ? redactText(value) : value;
    if (censored === value) continue;
    copy ??= { ...(headers as Record<string, unknown>) };
    copy[name] = censored;
  }
  return copy ?? headers;
}

/**
 * The object with its secret-bearing fields censored (`headers`, `confirm_token`,
 * `body.confirm_token`) and a key or token redacted from every string value (a handle, a path
 * or a backend's message can quote one), looked for on the object itself and on each object one
 * level down; the same object, untouched, when there is none. `req` and `res` are left to their
 * serializers, which write no headers. Copies, never mutates: the object may be live state.
 */
export function redactFields(obj: object, depth = 0): object {
  let copy: Record<string, unknown> | null = null;
  const set = (key: string, value: unknown) => {
    copy ??=
      obj instanceof Error
        ? (copyError(obj, obj.message, obj.stack) as unknown as Record<string, unknown>)
        : { ...(obj as Record<string, unknown>) };
    copy[key] = value;
  };
  const headers = own(obj, 'headers');
  if (headers !== undefined) {
    const censored = censorHeaders(headers);
    if (censored !== headers) set('headers', censored);
  }
  if (own(obj, 'confirm_token') !== undefined) set('confirm_token', REDACTED);
  const body = own(obj, 'body');
  if (body !== null && typeof body === 'object' && own(body, 'confirm_token') !== undefined) {
    set('body', { ...(body as Record<string, unknown>), confirm_token: REDACTED });
  }
  for (const key of Object.keys(obj)) {
    if (key === 'req' || key === 'res' || key === 'headers' || key === 'body') continue;
    const value = (obj as Record<string, unknown>)[key];
    if (typeof value === 'string') {
      const redacted = redactText(value);
      if (redacted !== value) set(key, redacted);
      continue;
    }
    if (depth > 0 || value === null || typeof value !== 'object' || Array.isArray(value)) continue;
    const redacted = redactFields(value, 1);
    if (redacted !== value) set(key, redacted);
  }
  return copy ?? obj;
}

/**
 * Fastify's request serializer, with every part a client chose redacted: the URL, the host (a
 * key sent as `Host`) and the address (taken from X-Forwarded-For behind a trusted proxy).
 */
function serializeRequest(req: FastifyRequest): Record<string, unknown> {
  return {
    method: req.method,
    url: redactText(req.url),
    host: typeof req.host === 'string' ? redactText(req.host) : req.host,
    remoteAddress: typeof req.ip === 'string' ? redactText(req.ip) : req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/** An error whose message or stack held a secret: a copy of the same class without it. */
function scrubError(err: Error): Error {
  const message = redactText(err.message);
  const stack = err.stack === undefined ? undefined : redactText(err.stack);
  if (message === err.message && stack === err.stack) return err;
  return copyError(err, message, stack);
}

/** A copy of the error, of the same class, with the given message and stack. */
function copyError(err: Error, message: string, stack: string | undefined): Error {
  const copy = Object.assign(Object.create(Object.getPrototypeOf(err) as object) as Error, err);
  Object.defineProperty(copy, 'message', { value: message, enumerable: false, writable: true, configurable: true });
  Object.defineProperty(copy, 'stack', { value: stack, enumerable: false, writable: true, configurable: true });
  return copy;
}

function scrubArg(arg: unknown): unknown {
  if (typeof arg === 'string') return redactText(arg);
  if (arg instanceof Error) return scrubError(redactFields(arg) as Error);
  if (arg !== null && typeof arg === 'object') {
    let out = redactFields(arg);
    const err = (out as { err?: unknown }).err;
    if (err instanceof Error) {
      const scrubbed = scrubError(err);
      if (scrubbed !== err) out = { ...out, err: scrubbed };
    }
    const msg = (out as { msg?: unknown }).msg;
    if (typeof msg === 'string' && redactText(msg) !== msg) out = { ...out, msg: redactText(msg) };
    return out;
  }
  return arg;
}

type LogFn = (...args: unknown[]) => void;

/**
 * Where lines go by default: stdout, each line written when it is logged, on the event loop's
 * own thread, rather than handed to libuv's thread pool: that hand-off cost more than the write
 * itself at the rates a replica mostly serves. A line logged just before the event loop stalls
 * is on stdout, not waiting for the loop. As with Node's own console on files and pipes, a log
 * collector that stops reading holds the replica up (docs/operations.md).
 */
function stdoutLines(): { write(line: string): void } {
  return destination({ dest: 1, sync: true });
}

/** JSON logs with keys and tokens redacted wherever they can appear; `stream` is for tests. */
export function loggerOptions(config: Pick<Config, 'LOG_LEVEL'>, stream?: { write(line: string): void }): FastifyServerOptions['logger'] {
  // With tracing on, every line logged inside a span carries its trace_id and span_id.
  const traceFields = currentTraceLogFields();
  return {
    ...(traceFields === null ? {} : { mixin: traceFields }),
    level: config.LOG_LEVEL,
    serializers: { req: serializeRequest },
    hooks: {
      logMethod(this: unknown, args: unknown[], method: LogFn) {
        for (let i = 0; i < args.length; i += 1) args[i] = scrubArg(args[i]);
        method.apply(this, args);
      },
    },
    stream: stream ?? stdoutLines(),
  } as FastifyServerOptions['logger'];
}
