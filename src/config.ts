/**
 * Configuration: one zod schema of the environment, validated once at start-up. The README's
 * configuration table lists the same variables; a test keeps the two in step.
 */
import { z } from 'zod';
import { parseConfirmKeys } from './confirm/token.ts';

const port = z.coerce.number().int().min(0).max(65535);
const positiveMs = z.coerce.number().int().positive();
const onOff = z.enum(['on', 'off']);
const optionalUrl = z
  .string()
  .trim()
  .transform((s) => (s === '' ? undefined : s))
  .pipe(z.url().optional())
  .optional();

export const ConfigSchema = z
  .object({
    NODE_ENV: z.string().default('development'),
    HOST: z.string().min(1).default('127.0.0.1'),
    PORT: port.default(8080),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** Base of every resource's human-visitable `url`. */
    PUBLIC_WEB_URL: z.url().default('https://sandbox.openpm.example'),
    /** Fastify trustProxy: `false`, `true`, or a comma-separated list of addresses/CIDRs. */
    TRUST_PROXY: z.string().default('false'),

    /** The backend's internal API. Unset: the built-in sandbox backend is started in-process. */
    UPSTREAM_URL: optionalUrl,
    UPSTREAM_SERVICE_TOKEN: z.string().min(1).optional(),
    UPSTREAM_CONNECT_TIMEOUT_MS: positiveMs.default(1_000),
    /** Whole-call budget for one upstream request (headers and body). */
    UPSTREAM_TIMEOUT_MS: positiveMs.default(5_000),
    UPSTREAM_CONNECTIONS: z.coerce.number().int().positive().default(64),
    UPSTREAM_MAX_RESPONSE_BYTES: z.coerce.number().int().positive().default(4 * 1024 * 1024),
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

    /** Lifetime of a cached key verdict; the revocation window, so never above 60 s. */
    KEY_CACHE_TTL_SECONDS: z.coerce.number().int().min(0).max(60).default(60),
    /** Lifetime of a cached "unknown key" verdict, so freshly created keys work quickly. */
    KEY_CACHE_NEGATIVE_TTL_SECONDS: z.coerce.number().int().min(0).max(60).default(10),
    KEY_CACHE_MAX_ENTRIES: z.coerce.number().int().positive().default(10_000),

    /**
     * Seals pagination cursors. Replicas must share it for a cursor from one to work on
     * another; unset, each process draws a random one (fine for a single process).
     */
    CURSOR_SECRET: z.string().min(16).optional(),

    /**
     * Confirm-token secrets, `kid:secret` pairs separated by commas (secrets 32+ characters).
     * Unset: a single process draws a random secret; a fleet (REDIS_URL set) answers
     * `500 CONFIRM_UNAVAILABLE` to previews and executions until it is configured.
     */
    CONFIRM_KEYS: z.string().optional(),
    /** Key id of CONFIRM_KEYS that signs new tokens (default: the first). */
    CONFIRM_SIGNING_KID: z.string().optional(),

    /** Per-key limits of SPEC 8; `off` only for load tests and test runs, never the default. */
    RATE_LIMITS: onOff.default('on'),
    RATE_LIMIT_READ_PER_MINUTE: z.coerce.number().int().positive().default(120),
    RATE_LIMIT_READ_PER_DAY: z.coerce.number().int().positive().default(10_000),
    RATE_LIMIT_SEARCH_PER_MINUTE: z.coerce.number().int().positive().default(30),
    RATE_LIMIT_WRITE_PER_MINUTE: z.coerce.number().int().positive().default(10),
    RATE_LIMIT_WRITE_PER_DAY: z.coerce.number().int().positive().default(200),
    /**
     * Failed authentications per minute and client address before further attempts without a
     * known-valid key get 429. Keys carry 16+ random characters, so guessing is hopeless
     * anyway; the budget bounds the backend load of failed verifications without tripping a
     * client that retries a bad key a few times.
     */
    AUTH_ATTEMPTS_PER_MINUTE: z.coerce.number().int().positive().default(300),

    /** Start-up state of the kill switch: `on` refuses every REST and MCP request with 503. */
    KILL_SWITCH: onOff.default('off'),
    /** How often a replica re-reads the shared kill switch besides pub/sub (ms). */
    KILL_SWITCH_POLL_MS: positiveMs.default(500),

    /** Admin server (metrics, kill switch): a separate port, never exposed publicly. */
    ADMIN_HOST: z.string().min(1).default('127.0.0.1'),
    ADMIN_PORT: port.default(9090),
    /** Bearer token for the admin endpoints that change state; unset disables them. */
    ADMIN_TOKEN: z.string().min(16).optional(),
  })
  .superRefine((c, ctx) => {
    try {
      parseConfirmKeys(c.CONFIRM_KEYS, c.CONFIRM_SIGNING_KID);
    } catch (err) {
      ctx.addIssue({ code: 'custom', path: ['CONFIRM_KEYS'], message: (err as Error).message });
    }
    if (c.UPSTREAM_URL !== undefined && c.UPSTREAM_SERVICE_TOKEN === undefined) {
      ctx.addIssue({ code: 'custom', path: ['UPSTREAM_SERVICE_TOKEN'], message: 'required when UPSTREAM_URL is set' });
    }
  });

export type Config = z.infer<typeof ConfigSchema>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parse the environment; throws a ConfigError naming every bad variable (never their values). */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const result = ConfigSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
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
  return value.split(',').map((s) => s.trim()).filter(Boolean);
}
