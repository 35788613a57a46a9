/**
 * Building blocks of the open contract (docs/contract/resources.md#wire-format).
 *
 * Response schemas here are plain zod that converts cleanly with z.toJSONSchema: no transforms,
 * no preprocess. Objects are strict (`additionalProperties: false` in JSON Schema, unknown keys
 * rejected when parsing), so that a test parsing a response also catches a field that must not
 * be there, such as a prediction-only field on a poll.
 */
import { z } from 'zod';

/** A decimal string with exactly 4 places: coins, gems, rubies, prices, probabilities. */
export const Dec4 = z
  .string()
  .regex(/^-?\d+\.\d{4}$/, 'decimal string with 4 places')
  .meta({ description: 'Decimal as a string with exactly 4 decimal places, never a JSON number.', examples: ['12.5000'] });

/** A decimal string with exactly 6 places: only `avg_price` (coins per ruby). */
export const Dec6 = z
  .string()
  .regex(/^-?\d+\.\d{6}$/, 'decimal string with 6 places')
  .meta({ description: 'Ratio as a decimal string with exactly 6 decimal places.', examples: ['0.631900'] });

/** Dec4, or '' where a preview figure is not meaningful (docs/contract/writes.md#order-preview-figures). */
export const Dec4OrEmpty = z
  .union([Dec4, z.literal('')])
  .meta({ description: 'Decimal string with 4 places, or an empty string when the figure does not apply.' });

/** Dec6, or '' where a preview figure is not meaningful (docs/contract/writes.md#order-preview-figures). */
export const Dec6OrEmpty = z
  .union([Dec6, z.literal('')])
  .meta({ description: 'Decimal string with 6 places, or an empty string when the figure does not apply.' });

/** RFC 3339 instant in UTC, always with the `Z` suffix (what Date#toISOString prints). */
export const Timestamp = z.iso
  .datetime()
  .meta({ description: 'RFC 3339 timestamp in UTC (`Z` suffix).', examples: ['2026-03-01T12:00:00.000Z'] });

/**
 * UUID-shaped identifier. Any version is accepted: the backend's ids are not all RFC 9562
 * (the sandbox uses fixed, readable ones), so version and variant bits are not checked.
 */
/** The shape of an id, for a schema read alone; it names no particular resource (the OpenAPI document drops it). */
export const GENERIC_UUID_EXAMPLE = '00000000-0000-4000-8000-00000000c001';

export const Uuid = z.guid().meta({ description: 'UUID.', examples: [GENERIC_UUID_EXAMPLE] });

/**
 * A UUID a caller gives (a path id, a body or query field): its hex digits are read without
 * regard to case, as RFC 9562 asks, and passed on in lower case, the form every answer carries,
 * so `…B0001` names the same topic as `…b0001` (docs/contract/resources.md#ids).
 */
export const UuidInput = z
  .guid()
  .toLowerCase()
  .meta({ description: 'UUID.', examples: [GENERIC_UUID_EXAMPLE] });

/** Absolute http(s) URL. */
export const Url = z.url({ protocol: /^https?$/ }).meta({ description: 'Absolute http(s) URL.' });

/** Human-visitable page of the resource in the app (docs/contract/resources.md#resource-urls). */
export const ResourceUrl = Url.meta({ description: 'Page of this resource in the app, for a human to visit.' });

/** Non-negative integer count. */
export const Count = z.int().nonnegative();

/** A paginated list (docs/contract/lists.md#list-envelope). `next_cursor` is opaque; null on the last page. */
export function ListOf<T extends z.ZodType>(item: T) {
  return z.strictObject({
    data: z.array(item),
    next_cursor: z
      .string()
      .min(1)
      .nullable()
      .meta({ description: 'Opaque cursor of the next page, to pass back as `cursor`; null on the last page.' }),
    has_more: z.boolean().meta({ description: 'Whether another page follows.' }),
  });
}

/** A complete, unpaginated list: `next_cursor` is always null and `has_more` always false. */
export function FullListOf<T extends z.ZodType>(item: T) {
  return z.strictObject({
    data: z.array(item),
    next_cursor: z.null().meta({ description: 'Always null: the list is complete.' }),
    has_more: z.literal(false).meta({ description: 'Always false: the list is complete.' }),
  });
}

// ---------------------------------------------------------------------------------------------
// Errors (docs/contract/errors.md#error-codes). The code set is closed.

export const ERROR_CODES = [
  'INVALID_ARGUMENT',
  'OPINION_SIDE_REQUIRED',
  'OPINION_SIDE_INVALID',
  'UNAUTHORIZED',
  'FORBIDDEN_SCOPE',
  'FORBIDDEN',
  'NOT_FOUND',
  'OPINION_NOT_FOUND',
  'CONFIRM_TOKEN_USED',
  'RATE_LIMITED',
  'INTERNAL',
  'CONFIRM_UNAVAILABLE',
  'SERVICE_DISABLED',
  'CONFIRM_TOKEN_INVALID',
  'CONFIRM_TOKEN_EXPIRED',
  'MECHANISM_UNSUPPORTED',
  'PREVIEW_UNAVAILABLE',
  'TOPIC_ALREADY_STAKED',
  'TOPIC_CLOSED',
  'TOPIC_QUOTE_EXPIRED',
  'TOPIC_QUOTE_INVALID',
  'TOPIC_MECHANISM_MISMATCH',
  'STAKE_OUT_OF_RANGE',
  'RETRY_IDEMPOTENCY_KEY',
  'INSUFFICIENT_BALANCE',
  'OPINION_ALREADY_BACKED',
  'OPINION_BACK_PRICE_MOVED',
  'OPINION_BACK_RETRY',
  'OPINION_BACK_FULL',
  'OPINION_BACK_CHAIN_BROKEN',
  'OPINION_TOPIC_CLOSED',
  'OPINION_TOPIC_HIDDEN',
  'OPINIONS_UNAVAILABLE',
  'CONTENT_INVALID',
  'CONTENT_MODERATED',
  'USER_PUNISHED',
] as const;
export const ErrorCode = z.enum(ERROR_CODES).meta({ description: 'Machine-readable error code (closed set).' });
export type ErrorCode = z.infer<typeof ErrorCode>;

export const ErrorEnvelope = z
  .strictObject({
    error: z.strictObject({
      code: ErrorCode,
      message: z.string().meta({ description: 'Human-readable explanation; do not parse it.' }),
      details: z
        .record(z.string(), z.unknown())
        .optional()
        .meta({ description: 'Free-form context, for example `{"field": "limit"}` or `{"retry_after": 30}`.' }),
    }),
  })
  .meta({ description: 'Error answer of every operation.' });
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

/**
 * A discriminated union of objects whose JSON Schema also says `type: "object"` at the root.
 * MCP requires a tool's outputSchema to be an object schema; a bare `oneOf` is refused.
 */
export function objectUnion<K extends string, const T extends readonly [z.core.$ZodTypeDiscriminable, ...z.core.$ZodTypeDiscriminable[]]>(
  key: K,
  options: T,
  description: string,
) {
  return z.discriminatedUnion(key, options).meta({ type: 'object', description });
}

/**
 * Characters user text may not carry (docs/contract/writes.md#text-rules): C0 and C1 controls
 * other than tab and newline (a carriage return included), the Unicode bidirectional
 * formatting controls, which can make published text read differently from what was previewed,
 * and unpaired UTF-16 surrogates, which JSON can carry escaped but are no text at all (each
 * would grow a confirm token by six characters).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const FORBIDDEN_TEXT = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

export function hasForbiddenCharacters(text: string): boolean {
  return FORBIDDEN_TEXT.test(text) || !text.isWellFormed();
}

/** The largest stake a request may state, in whole coins (docs/contract/writes.md#amount-limits). */
export const MAX_AMOUNT_COINS = 1_000_000_000;
