/**
 * Configuration: one zod schema of the environment, validated once at start-up. The README's
 * configuration table lists the same variables; a test keeps the two in step.
 */
import { accessSync, constants } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { isLoopbackHost, parseAdminTokens } from './admin/tokens.ts';
import { CONFIRM_KEY_RING, CURSOR_KEY_RING, type KeyRing, type KeyRingNames, parseKeyRing } from './secrets/key-ring.ts';
import { TRACING_ENV } from './tracing/settings.ts';

/** REQUEST_TIMEOUT_MS when not set: far more than a 16-KiB body needs on any link. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/**
 * The longest UPSTREAM_TIMEOUT_MS may be. An execution makes at most two backend calls one
 * after the other (publish_opinion reads, then writes); its pending confirm claim lives three
 * times this long (src/confirm/execute-once.ts), which leaves the last third for the claim store
 * and scheduling, so a claim never expires under an execution that is still running (which
 * would let a retry run it again).
 */
export const MAX_UPSTREAM_TIMEOUT_MS = 20_000;

/** `https://a.example, https://b.example:8443/` → the set of origins, normalised. */
function parseAllowedOrigins(spec: string): ReadonlySet<string> {
  const out = new Set<string>();
  for (const part of spec.split(',')) {
    const trimmed = part.trim();
    if (trimmed === '') continue;
    let origin: string;
    try {
      origin = new URL(trimmed).origin;
    } catch {
      throw new Error(`MCP_ALLOWED_ORIGINS: "${trimmed.slice(0, 80)}" is not an origin (scheme://host[:port])`);
    }
    if (origin === 'null') throw new Error(`MCP_ALLOWED_ORIGINS: "${trimmed.slice(0, 80)}" has no origin`);
    out.add(origin);
  }
  return out;
}

const port = z.coerce.number().int().min(0).max(65535);
const positiveMs = z.coerce.number().int().positive();
/**
 * `on` or `off`; `true` and `false` read as the same, since a YAML 1.1 values file (Helm's)
 * turns an unquoted on/off into a boolean that reaches the environment as "true"/"false".
 */
const onOff = z.enum(['on', 'off', 'true', 'false']).transform((v): 'on' | 'off' => (v === 'true' || v === 'on' ? 'on' : 'off'));
/** Unset or empty: undefined (a chart may render an empty value for an unused setting). */
const optionalText = z
  .string()
  .trim()
  .transform((s) => (s === '' ? undefined : s))
  .optional();
/** `host:port,host:port`; a missing port is `defaultPort`. Empty or unset: an empty list. */
function hostPortList(defaultPort: number) {
  return z
    .string()
    .default('')
    .transform((s, ctx) => {
      const nodes: { host: string; port: number }[] = [];
      for (const item of s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean)) {
        const m = /^(\[[0-9a-fA-F:]+\]|[^:\s[\]]+)(?::(\d{1,5}))?$/.exec(item);
        const port = m?.[2] === undefined ? defaultPort : Number(m[2]);
        if (m === null || m[1] === undefined || port < 1 || port > 65535) {
          ctx.addIssue({ code: 'custom', message: `"${item}" is not host:port` });
          return z.NEVER;
        }
        nodes.push({ host: m[1].replace(/^\[|\]$/g, ''), port });
      }
      return nodes;
    });
}
const optionalUrl = z
  .string()
  .trim()
  .transform((s) => (s === '' ? undefined : s))
  .pipe(z.url().optional())
  .optional();

export const ConfigSchema = z
  .object({
    /** `production` (the image sets it) never starts the sandbox: UPSTREAM_URL becomes required. */
    NODE_ENV: z.string().default('development'),
    HOST: z.string().min(1).default('127.0.0.1'),
    PORT: port.default(8080),
    /**
     * A request (headers and body) not received in full within this long is answered 408 and its
     * connection closed, so a client that never finishes a body cannot hold a connection.
     */
    REQUEST_TIMEOUT_MS: positiveMs.max(300_000).default(DEFAULT_REQUEST_TIMEOUT_MS),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** Base of every resource's human-visitable `url`. */
    PUBLIC_WEB_URL: z.url().default('https://sandbox.openpm.example'),
    /** Fastify trustProxy: `false`, `true`, or a comma-separated list of addresses/CIDRs. */
    TRUST_PROXY: z.string().default('false'),

    /** The backend's internal API. Unset: the built-in sandbox backend is started in-process (never in production). */
    UPSTREAM_URL: optionalUrl,
    UPSTREAM_SERVICE_TOKEN: z.string().min(1).optional(),
    UPSTREAM_CONNECT_TIMEOUT_MS: positiveMs.default(1_000),
    /**
     * Whole-call budget for one upstream request (headers and body). Bounded so that an
     * execution always ends while its pending confirm claim still holds (src/confirm/execute-once.ts).
     */
    UPSTREAM_TIMEOUT_MS: positiveMs
      .max(
        MAX_UPSTREAM_TIMEOUT_MS,
        `must be at most ${MAX_UPSTREAM_TIMEOUT_MS} ms, so a write ends before its pending confirm claim expires`,
      )
      .default(5_000),
    UPSTREAM_CONNECTIONS: z.coerce.number().int().positive().default(64),
    UPSTREAM_MAX_RESPONSE_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(4 * 1024 * 1024),
    /** Extra attempts of a GET after a connection error or 502/503/504 (never a POST), inside the deadline. */
    UPSTREAM_RETRIES: z.coerce.number().int().min(0).max(5).default(2),
    /** Consecutive failed backend calls that open the circuit breaker; 0 disables it. */
    UPSTREAM_BREAKER_THRESHOLD: z.coerce.number().int().min(0).default(5),
    /** How long an open breaker refuses calls before one probe goes through (ms). */
    UPSTREAM_BREAKER_COOLDOWN_MS: positiveMs.default(5_000),
    /** The failures that open the breaker must fall within this long of the first (ms). */
    UPSTREAM_BREAKER_WINDOW_MS: positiveMs.default(10_000),
    /** Port of the in-process sandbox backend (0 = any free port). */
    SANDBOX_PORT: port.default(0),

    /** Shared state of a fleet of replicas. Unset: in-memory stores (one process only). */
    REDIS_URL: optionalUrl,
    REDIS_KEY_PREFIX: z.string().default('openpm:'),
    REDIS_COMMAND_TIMEOUT_MS: positiveMs.default(250),
    /**
     * How REDIS_URL is reached: one server (`standalone`), a Redis Cluster whose seed node it
     * names (`cluster`), or the master that Sentinel reports under the URL's host name
     * (`sentinel`). Scheme `rediss://` turns TLS on (docs/deployment.md, "Redis").
     */
    REDIS_MODE: z.enum(['standalone', 'cluster', 'sentinel']).default('standalone'),
    /** Password of the data nodes; overrides a password in REDIS_URL (so the URL can stay out of secrets). */
    REDIS_PASSWORD: optionalText,
    /** Cluster: seed nodes besides REDIS_URL's, `host:port` separated by commas. */
    REDIS_CLUSTER_NODES: hostPortList(6379),
    /** Sentinel: the sentinels, `host:port` separated by commas (port 26379 when left out). */
    REDIS_SENTINELS: hostPortList(26379),
    REDIS_SENTINEL_USERNAME: optionalText,
    REDIS_SENTINEL_PASSWORD: optionalText,
    /** Sentinel: talk TLS to the sentinels themselves (the data nodes follow REDIS_URL's scheme). */
    REDIS_SENTINEL_TLS: onOff.default('off'),
    /** PEM bundle of the CAs that sign Redis's certificates (default: Node's public CAs). */
    REDIS_TLS_CA_FILE: optionalText,
    /** Client certificate and key (PEM) when Redis asks for one (mutual TLS); both or neither. */
    REDIS_TLS_CERT_FILE: optionalText,
    REDIS_TLS_KEY_FILE: optionalText,
    /** Name to verify Redis's certificate against, when nodes are reached by IP address (cluster). */
    REDIS_TLS_SERVERNAME: optionalText,

    /** Lifetime of a cached key verdict; the revocation window, so never above 60 s. */
    KEY_CACHE_TTL_SECONDS: z.coerce.number().int().min(0).max(60).default(60),
    /** Lifetime of a cached "unknown key" verdict, so freshly created keys work quickly. */
    KEY_CACHE_NEGATIVE_TTL_SECONDS: z.coerce.number().int().min(0).max(60).default(10),
    KEY_CACHE_MAX_ENTRIES: z.coerce.number().int().positive().default(10_000),

    /**
     * Seals pagination cursors. Replicas must share it for a cursor from one to work on
     * another; unset (and no CURSOR_KEYS), a single process draws a random one. A fleet
     * (REDIS_URL set) must set this or CURSOR_KEYS.
     */
    CURSOR_SECRET: z.string().min(16).optional(),
    /**
     * Cursor secrets to rotate without breaking open cursors: `kid:secret` pairs (secrets 16+
     * characters), every one accepted, CURSOR_SIGNING_KID's sealing new cursors, as CONFIRM_KEYS.
     * `old:<the CURSOR_SECRET value>` keeps the cursors that secret sealed (docs/operations.md#rotating-secrets).
     */
    CURSOR_KEYS: optionalText,
    /** Key id of CURSOR_KEYS that seals new cursors (default: the first). */
    CURSOR_SIGNING_KID: optionalText,

    /**
     * Confirm-token secrets, `kid:secret` pairs separated by commas (secrets 32+ characters).
     * Unset: a single process draws a random secret; a fleet (REDIS_URL set) refuses to start.
     */
    CONFIRM_KEYS: z.string().optional(),
    /** Key id of CONFIRM_KEYS that signs new tokens (default: the first). */
    CONFIRM_SIGNING_KID: z.string().optional(),

    /** Per-key limits (docs/contract/limits.md#windows); `off` only for load tests and test runs, never the default. */
    RATE_LIMITS: onOff.default('on'),
    RATE_LIMIT_READ_PER_MINUTE: z.coerce.number().int().positive().default(120),
    RATE_LIMIT_READ_PER_DAY: z.coerce.number().int().positive().default(10_000),
    RATE_LIMIT_SEARCH_PER_MINUTE: z.coerce.number().int().positive().default(30),
    RATE_LIMIT_WRITE_PER_MINUTE: z.coerce.number().int().positive().default(10),
    RATE_LIMIT_WRITE_PER_DAY: z.coerce.number().int().positive().default(200),
    /**
     * Failed authentications per minute and client address before that address's keys that
     * need the backend are metered to this rate spread over the minute (5 a second for 300;
     * src/limits/auth-throttle.ts). A key whose verdict is cached is never refused; a valid key
     * not yet verified from a throttled address may get one 429 (Retry-After: 1) and passes on
     * its retry.
     */
    AUTH_ATTEMPTS_PER_MINUTE: z.coerce.number().int().positive().default(300),
    /** The same over the whole fleet (per process without Redis): bounds a flood from many addresses. */
    AUTH_ATTEMPTS_TOTAL_PER_MINUTE: z.coerce.number().int().positive().default(6_000),
    /**
     * Requests per minute and client address to the documents served without a key (docs pages,
     * OpenAPI document) before they are answered 429 (src/limits/public-throttle.ts).
     */
    PUBLIC_REQUESTS_PER_MINUTE: z.coerce.number().int().positive().default(120),
    /** The same for /livez and /readyz, counted per replica (a probe never waits on Redis). */
    HEALTH_REQUESTS_PER_MINUTE: z.coerce.number().int().positive().default(600),

    /**
     * Browser origins allowed to call /mcp (comma-separated, e.g. `https://agent.example`). MCP
     * asks servers to check `Origin` against DNS rebinding; a request carrying any other origin
     * is refused with 403 (docs/mcp.md#origin). Requests without `Origin` (every non-browser
     * client) are not affected.
     */
    MCP_ALLOWED_ORIGINS: z
      .string()
      .default('')
      .transform((spec, ctx) => {
        try {
          return parseAllowedOrigins(spec);
        } catch (err) {
          ctx.addIssue({ code: 'custom', message: (err as Error).message });
          return z.NEVER;
        }
      }),
    /**
     * Whether an MCP client of the 2026-07-28 revision that declares form elicitation is asked
     * to confirm place_order, publish_opinion and back_opinion with the user before they run
     * (docs/mcp.md#client-confirmation). `off` keeps the confirm token as the only confirmation.
     */
    MCP_CLIENT_CONFIRMATION: onOff.default('on'),

    /** Start-up state of the kill switch: `on` refuses every REST and MCP request with 503. */
    KILL_SWITCH: onOff.default('off'),
    /** How often a replica re-reads the shared kill switch besides pub/sub (ms). */
    KILL_SWITCH_POLL_MS: positiveMs.default(500),

    /**
     * Where the audit trail of executions and kill-switch changes is written as JSON lines
     * (docs/audit.md): `stdout` (the default) or a file path, appended to. LOG_LEVEL never silences it.
     */
    AUDIT_LOG: z
      .string()
      .trim()
      .min(1)
      .default('stdout')
      .refine(auditLogWritable, 'must be stdout or a file path whose folder exists and is writable'),
    /** How long the shared audit stream keeps a record (REDIS_URL set), in hours: 168 = 7 days. */
    AUDIT_RETENTION_HOURS: z.coerce.number().int().positive().max(8_760).default(168),

    /** Admin server (metrics, kill switch): a separate port, never exposed publicly. */
    ADMIN_HOST: z.string().min(1).default('127.0.0.1'),
    ADMIN_PORT: port.default(9090),
    /**
     * Bearer token of the admin endpoints that read or change the kill switch; several, comma-
     * separated, are all accepted while one is being rotated. Unset: changes only on a loopback
     * ADMIN_HOST; beyond loopback it is required.
     */
    ADMIN_TOKEN: z.string().optional(),

    /** `Server-Timing: gw;dur=…, upstream;dur=…` on REST and MCP answers (docs/operations.md#server-timing). */
    SERVER_TIMING: onOff.default('on'),
    ...TRACING_ENV,
  })
  .superRefine((c, ctx) => {
    if (c.CURSOR_KEYS !== undefined && c.CURSOR_SECRET !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['CURSOR_KEYS'], message: 'set CURSOR_KEYS or CURSOR_SECRET, not both' });
    }
    try {
      parseAdminTokens(c.ADMIN_TOKEN);
    } catch (err) {
      ctx.addIssue({ code: 'custom', path: ['ADMIN_TOKEN'], message: (err as Error).message });
    }
    // A production deployment that forgot its backend must not serve the sandbox and its public demo keys.
    if (c.NODE_ENV === 'production' && c.UPSTREAM_URL === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['UPSTREAM_URL'],
        message: 'required when NODE_ENV=production (the sandbox never runs in production)',
      });
    }
    if (c.UPSTREAM_URL !== undefined && c.UPSTREAM_SERVICE_TOKEN === undefined) {
      ctx.addIssue({ code: 'custom', path: ['UPSTREAM_SERVICE_TOKEN'], message: 'required when UPSTREAM_URL is set' });
    }
  })
  .superRefine((c, ctx): void => checkRedis(c, ctx))
  .superRefine((c, ctx): void => checkWholeClasses(c, ctx));
/** The variables as read, before the key rings are parsed. */
type RawConfig = z.output<typeof ConfigSchema>;

/** The key rings parsed once, here, into what their users take. */
const ParsedConfig = ConfigSchema.transform((c, ctx) => ({
  ...c,
  CONFIRM_KEYS: keyRingOf(c.CONFIRM_KEYS, c.CONFIRM_SIGNING_KID, CONFIRM_KEY_RING, ctx),
  CURSOR_KEYS: keyRingOf(c.CURSOR_KEYS, c.CURSOR_SIGNING_KID, CURSOR_KEY_RING, ctx),
}));

export type Config = z.output<typeof ParsedConfig>;

/** A key ring (unset: undefined), or an issue on its variable. */
function keyRingOf(
  spec: string | undefined,
  signingKid: string | undefined,
  names: KeyRingNames,
  ctx: z.RefinementCtx,
): KeyRing | undefined {
  try {
    const ring = parseKeyRing(spec, signingKid, names);
    return spec === undefined ? undefined : ring;
  } catch (err) {
    ctx.addIssue({ code: 'custom', path: [names.keys], message: (err as Error).message });
    return undefined;
  }
}

/** Judged at start-up, so a trail that cannot be written stops the process with a message, not later. */
function auditLogWritable(target: string): boolean {
  if (target === 'stdout') return true;
  try {
    accessSync(dirname(target), constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks across the Redis variables (a second refinement, so the variables are added without
 * touching the others'). A URL's credentials never appear in a message.
 */
function checkRedis(c: RawConfig, ctx: z.RefinementCtx): void {
  const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
  if (c.REDIS_URL === undefined) {
    if (c.REDIS_MODE !== 'standalone') issue('REDIS_URL', `required with REDIS_MODE=${c.REDIS_MODE}`);
    return;
  }
  // Refinements run even when a field failed its own check: never throw on such a value.
  if (!URL.canParse(c.REDIS_URL) || !Array.isArray(c.REDIS_SENTINELS) || !Array.isArray(c.REDIS_CLUSTER_NODES)) return;
  const url = new URL(c.REDIS_URL);
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') issue('REDIS_URL', 'must start with redis:// or rediss://');
  if (url.search !== '') issue('REDIS_URL', 'query parameters are not supported; use the REDIS_* variables');
  const db = url.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d{1,2}$/.test(db)) issue('REDIS_URL', 'the path must be a database number, e.g. /0');
  if (c.REDIS_MODE === 'cluster' && db !== '' && db !== '0') issue('REDIS_URL', 'Redis Cluster has only database 0');
  if (c.REDIS_MODE === 'sentinel' && c.REDIS_SENTINELS.length === 0) issue('REDIS_SENTINELS', 'required with REDIS_MODE=sentinel');
  if (c.REDIS_MODE !== 'sentinel' && c.REDIS_SENTINELS.length > 0) issue('REDIS_SENTINELS', 'only used with REDIS_MODE=sentinel');
  if (c.REDIS_MODE !== 'cluster' && c.REDIS_CLUSTER_NODES.length > 0) issue('REDIS_CLUSTER_NODES', 'only used with REDIS_MODE=cluster');
  const tls = url.protocol === 'rediss:' || c.REDIS_SENTINEL_TLS === 'on';
  for (const name of ['REDIS_TLS_CA_FILE', 'REDIS_TLS_CERT_FILE', 'REDIS_TLS_KEY_FILE', 'REDIS_TLS_SERVERNAME'] as const) {
    if (c[name] !== undefined && !tls) issue(name, 'needs TLS: a rediss:// REDIS_URL (or REDIS_SENTINEL_TLS=on)');
  }
  // Read at start-up anyway: an unreadable file is a configuration error, not a crash later.
  for (const name of ['REDIS_TLS_CA_FILE', 'REDIS_TLS_CERT_FILE', 'REDIS_TLS_KEY_FILE'] as const) {
    const path = c[name];
    if (path === undefined || !tls) continue;
    try {
      accessSync(path, constants.R_OK);
    } catch (err) {
      issue(name, `cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? 'unreadable'})`);
    }
  }
  if ((c.REDIS_TLS_CERT_FILE === undefined) !== (c.REDIS_TLS_KEY_FILE === undefined)) {
    issue('REDIS_TLS_KEY_FILE', 'REDIS_TLS_CERT_FILE and REDIS_TLS_KEY_FILE go together');
  }
}

/**
 * Start-up refusals of a configuration under which a whole class of requests would fail at run
 * time, each naming what is missing and why, rather than a process that starts and then answers
 * every write, every second page or every kill-switch change with an error.
 */
function checkWholeClasses(c: RawConfig, ctx: z.RefinementCtx): void {
  const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
  if (c.REDIS_URL !== undefined) {
    if (c.CONFIRM_KEYS === undefined) {
      issue(
        'CONFIRM_KEYS',
        'required with REDIS_URL: replicas must share the confirm-token keys, or a token one signs fails on another and every write answers CONFIRM_UNAVAILABLE',
      );
    }
    if (c.CURSOR_SECRET === undefined && c.CURSOR_KEYS === undefined) {
      issue(
        'CURSOR_SECRET',
        'required with REDIS_URL (or CURSOR_KEYS): replicas must share the cursor secret, or a next_cursor from one is refused by another',
      );
    }
  }
  if (c.ADMIN_TOKEN === undefined && !isLoopbackHost(c.ADMIN_HOST)) {
    issue(
      'ADMIN_TOKEN',
      `required when ADMIN_HOST (${c.ADMIN_HOST}) is not a loopback address: without it the kill switch cannot be changed`,
    );
  }
}

export class ConfigError extends Error {
  override name = 'ConfigError';
  /** One `VARIABLE: problem` per issue. */
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    this.problems = problems;
  }

  /** The whole refusal on one line, for a process that stops on it. */
  oneLine(): string {
    return `invalid configuration: ${this.problems.join('; ')}`;
  }
}

/** Parse the environment; throws a ConfigError naming every bad variable (never their values). */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const result = ParsedConfig.safeParse(env);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`));
  }
  return result.data;
}

/** Config for tests and embedding: defaults plus overrides, validated the same way. */
export function configFrom(overrides: Partial<Record<keyof Config, string | number>>): Config {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(overrides)) if (v !== undefined) env[k] = String(v);
  return loadConfig(env);
}

export function parseTrustProxy(value: string): boolean | string[] {
  if (value === 'true') return true;
  if (value === 'false' || value === '') return false;
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
