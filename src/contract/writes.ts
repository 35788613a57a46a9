/**
 * The two-phase write flow (docs/contract/writes.md#two-phase-flow): request bodies, previews
 * and the results of the executing operations.
 *
 * Previews are single flat objects (not unions) so that their JSON Schema is a plain object, as
 * MCP output schemas must be; the contract's conditional presence rules are refinements instead.
 */
import { z } from 'zod';
import { aliased, aliasesMatch } from './aliases.ts';
import { Count, Dec4, Dec4OrEmpty, Dec6, Dec6OrEmpty, MAX_AMOUNT_COINS, ResourceUrl, Timestamp, Uuid, UuidInput } from './common.ts';
import { Mechanism } from './enums.ts';
import { OpinionReplyTo, OwnerOpinion } from './owner.ts';
import { UserRef } from './users.ts';

// ---------------------------------------------------------------------------------------------
// Request bodies

export const OrderPreviewRequest = z
  .strictObject({
    option_id: UuidInput.meta({ description: "Option to stake on, from the topic's `options`." }),
    // A JSON integer (integral in JSON Schema's sense, so 10.0 counts) up to MAX_AMOUNT_COINS:
    // one beyond the topic's range is STAKE_OUT_OF_RANGE (200), not a 400; strings, fractions,
    // zero, negatives and amounts over the cap are 400.
    amount_coins: z
      .number({ error: 'must be a whole number of coins, as a JSON integer' })
      .refine(Number.isInteger, 'must be a whole number of coins, as a JSON integer')
      .refine((n) => n >= 1, 'must be at least 1')
      // A cap far above any topic's range keeps every figure derived from the stake exact (a
      // JSON number beyond 2^53 has already lost digits) and short (docs/contract/writes.md#amount-limits).
      .refine((n) => n <= MAX_AMOUNT_COINS, `must be at most ${MAX_AMOUNT_COINS}`)
      .optional()
      .meta({
        type: 'integer',
        minimum: 1,
        maximum: MAX_AMOUNT_COINS,
        description:
          "Stake in whole coins, as the user stated it. Never choose, infer or round it: ask the user. When omitted the topic's `stake_rules.default_coins` is used.",
      }),
  })
  .meta({ description: 'Body of POST /topics/{id}/order-preview.' });
export type OrderPreviewRequest = z.infer<typeof OrderPreviewRequest>;

/** Request members that carry an amount of money, judged on their source text (`exactAmountCoins`). */
export const MONEY_FIELDS: ReadonlySet<string> = new Set(['amount_coins']);

/**
 * "A fraction gives 400" is about what the caller wrote, and a double cannot always tell:
 * `10.00000000000000001` parses to exactly 10. A `JSON.parse` reviver (given each number's
 * source text) that hands an `amount_coins` written as a fraction to the schema as that text,
 * which it then refuses like any value that is not a whole number. `10.0` and `1e1` are whole
 * numbers however written, and stay accepted (docs/contract/writes.md#amount-limits).
 */
export function exactAmountCoins(key: string, value: unknown, context?: { source?: string }): unknown {
  if (!MONEY_FIELDS.has(key) || typeof value !== 'number' || context?.source === undefined) return value;
  return wholeNumeral(context.source) ? value : context.source;
}

/** Whether a JSON number's text denotes a whole number: no non-zero digit after the point once the exponent is applied. */
function wholeNumeral(text: string): boolean {
  const m = /^-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (m === null) return false;
  const digits = (m[1] ?? '') + (m[2] ?? '');
  const point = (m[1] ?? '').length + Number(m[3] ?? 0);
  return /^0*$/.test(point <= 0 ? digits : digits.slice(point));
}

export const OpinionPreviewRequest = z
  .strictObject({
    content: z.string().meta({
      description:
        'Opinion text, 1 to 500 characters, without control characters (but tab and newline) or bidirectional formatting characters; otherwise the reason is CONTENT_INVALID.',
    }),
    reply_to_opinion_id: UuidInput.nullable().optional().meta({ description: 'The opinion replied to, if any.' }),
  })
  .meta({ description: 'Body of POST /topics/{id}/opinion-preview.' });
export type OpinionPreviewRequest = z.infer<typeof OpinionPreviewRequest>;

export const BackPreviewRequest = z
  .strictObject({ topic_id: UuidInput.meta({ description: 'The topic the opinion belongs to.' }) })
  .meta({ description: 'Body of POST /opinions/{id}/back-preview.' });
export type BackPreviewRequest = z.infer<typeof BackPreviewRequest>;

/** Body of POST /orders, /opinions and /backs: exactly the token, nothing else. */
export const ConfirmRequest = z
  .strictObject({
    confirm_token: z.string().min(1).max(4096).meta({ description: 'The token from the matching preview, valid 5 minutes.' }),
  })
  .meta({ description: 'Executes a previewed action. Only call after the user explicitly confirmed the preview summary.' });
export type ConfirmRequest = z.infer<typeof ConfirmRequest>;

// ---------------------------------------------------------------------------------------------
// Previews

const confirmToken = z.string().min(1).meta({ description: 'Pass to the executing operation; present only when the action is possible.' });
const expiresAt = Timestamp.meta({ description: 'When the token expires (5 minutes ahead); present only with a token.' });

/** Presence rules shared by the three previews: a token xor a reason. */
function tokenXorReason(can: boolean, v: { reason?: unknown; confirm_token?: unknown; expires_at?: unknown }, ctx: z.RefinementCtx) {
  const present = (key: 'reason' | 'confirm_token' | 'expires_at') => v[key] !== undefined;
  const expect = (key: 'reason' | 'confirm_token' | 'expires_at', wanted: boolean) => {
    if (present(key) !== wanted) {
      ctx.addIssue({ code: 'custom', path: [key], message: `${key} must be ${wanted ? 'present' : 'absent'} here` });
    }
  };
  expect('reason', !can);
  expect('confirm_token', can);
  expect('expires_at', can);
}

export const OrderPreviewReason = z
  .enum(['TOPIC_CLOSED', 'ALREADY_STAKED', 'INSUFFICIENT_BALANCE', 'MECHANISM_UNSUPPORTED', 'STAKE_OUT_OF_RANGE'])
  .meta({ description: 'Why an order cannot be placed now.' });
export type OrderPreviewReason = z.infer<typeof OrderPreviewReason>;

export const OrderSummary = z
  .strictObject({
    topic_title: z.string(),
    option_label: z.string(),
    stake_coins: Dec4.meta({
      description:
        'Coins the order spends: the requested amount, or `stake_rules.default_coins` when omitted; echoed unclamped with STAKE_OUT_OF_RANGE.',
    }),
    balance_before: Dec4,
    balance_after: Dec4.meta({ description: 'Equals `balance_before` when the order cannot be placed.' }),
    price_now: Dec4.meta({ description: 'Current price of the option.' }),
    price_after: Dec4OrEmpty.meta({ description: 'Marginal price once this order joins the book; empty when not meaningful.' }),
    payout_if_correct_rubies: Dec4OrEmpty.meta({
      description: 'units × ruby_multiplier: the guaranteed minimum payout; empty when not meaningful.',
    }),
    ruby_multiplier: Dec4OrEmpty.meta({ description: 'Boost multiplier live now, "1.0000" without a boost; empty when not meaningful.' }),
    avg_price: Dec6OrEmpty.meta({ description: 'Coins per unit for this fill (stake / units), 6 places; empty when not meaningful.' }),
    close_time: Timestamp,
    mechanism: Mechanism,
  })
  .meta({ description: 'What the order would do. Show it to the user and obtain explicit confirmation.' });
export type OrderSummary = z.infer<typeof OrderSummary>;

export const StakeRange = z
  .strictObject({ min_coins: Dec4, max_coins: Dec4 })
  .meta({ description: "The topic's stake range, with STAKE_OUT_OF_RANGE only." });

export const OrderPreview = z
  .strictObject({
    can_place: z.boolean(),
    summary: OrderSummary,
    reason: OrderPreviewReason.optional().meta({ description: 'Why the order cannot be placed; only when `can_place` is false.' }),
    details: StakeRange.optional(),
    confirm_token: confirmToken.optional(),
    expires_at: expiresAt.optional(),
  })
  .superRefine((v, ctx) => {
    tokenXorReason(v.can_place, v, ctx);
    if ((v.details !== undefined) !== (v.reason === 'STAKE_OUT_OF_RANGE')) {
      ctx.addIssue({ code: 'custom', path: ['details'], message: 'details go with STAKE_OUT_OF_RANGE, and only with it' });
    }
  })
  .meta({ description: 'Answer of order-preview. Nothing is charged.' });
export type OrderPreview = z.infer<typeof OrderPreview>;

// INSUFFICIENT_BALANCE joins the contract's four because a preview offers a token only for a
// possible action, and an unaffordable fee makes it impossible (docs/contract/writes.md#opinion-preview-reasons).
export const OpinionPreviewReason = z
  .enum(['TOPIC_CLOSED', 'NO_POSITION', 'CONTENT_INVALID', 'SIDE_REQUIRED', 'INSUFFICIENT_BALANCE'])
  .meta({ description: 'Why an opinion cannot be published now.' });
export type OpinionPreviewReason = z.infer<typeof OpinionPreviewReason>;

export const OpinionSummary = z
  .strictObject({
    topic_title: z.string(),
    fee_coins: Dec4.meta({ description: 'Coins charged to publish.' }),
    balance_after: Dec4.meta({
      description: 'The coin balance once the fee is paid; the balance unchanged when the opinion cannot be published.',
    }),
    side_option_label: z.string().meta({
      description: 'The option the owner staked on, resolved from their position (never declared by the client); empty without a position.',
    }),
    content_preview: z.string().meta({
      description:
        'The text as it would be published (trimmed), cut at 140 characters; a control or bidirectional formatting character shows as U+FFFD.',
    }),
    reply_to: OpinionReplyTo.nullable(),
  })
  .meta({ description: 'What publishing would do.' });
export type OpinionSummary = z.infer<typeof OpinionSummary>;

export const OpinionPreview = z
  .strictObject({
    can_publish: z.boolean(),
    summary: OpinionSummary,
    reason: OpinionPreviewReason.optional(),
    confirm_token: confirmToken.optional(),
    expires_at: expiresAt.optional(),
  })
  .superRefine((v, ctx) => tokenXorReason(v.can_publish, v, ctx))
  .meta({ description: 'Answer of opinion-preview. Nothing is charged.' });
export type OpinionPreview = z.infer<typeof OpinionPreview>;

export const BackPreviewReason = z
  .enum(['OPINION_INACTIVE', 'ALREADY_BACKED', 'TOPIC_CLOSED', 'INSUFFICIENT_BALANCE', 'OPINION_BACK_FULL'])
  .meta({ description: 'Why a back cannot be placed now.' });
export type BackPreviewReason = z.infer<typeof BackPreviewReason>;

const maxRelayPayback =
  'Conditional: the most this seat can receive, in rubies, if two more backers follow. Nothing is paid if nobody follows.';

export const BackSummary = z
  .strictObject(
    aliased({
      topic_title: z.string(),
      opinion_excerpt: z.string(),
      author: UserRef,
      backer_count: Count,
      my_seq_if_now: z.int().positive().meta({ description: 'The seat the owner would take in the backing relay.' }),
      price_coins: Dec4,
      balance_before: Dec4,
      balance_after: Dec4.meta({ description: 'Equals `balance_before` when the back cannot be placed.' }),
      max_relay_payback_rubies: Dec4.meta({ description: maxRelayPayback }),
      close_time: Timestamp,
    }),
  )
  .superRefine(aliasesMatch)
  .meta({ description: 'What backing would do.' });
export type BackSummary = z.infer<typeof BackSummary>;

export const BackPreview = z
  .strictObject({
    can_back: z.boolean(),
    summary: BackSummary,
    reason: BackPreviewReason.optional(),
    confirm_token: confirmToken.optional(),
    expires_at: expiresAt.optional(),
  })
  .superRefine((v, ctx) => tokenXorReason(v.can_back, v, ctx))
  .meta({ description: 'Answer of back-preview. Nothing is charged.' });
export type BackPreview = z.infer<typeof BackPreview>;

// ---------------------------------------------------------------------------------------------
// Results of the executing operations

const replayed = z
  .boolean()
  .meta({ description: 'False on the first success; true when a retry with the same token answers the stored result.' });

export const Order = z
  .strictObject({
    id: z.string().min(1),
    topic_id: Uuid,
    option_id: Uuid,
    option_label: z.string(),
    stake_coins: Dec4,
    units: Dec4,
    avg_price: Dec6.meta({ description: 'Coins per unit (stake / units), 6 places.' }),
    ruby_multiplier: Dec4.meta({ description: 'Multiplier live when the order was placed; a boost at settlement can raise it.' }),
    payout_if_correct_rubies: Dec4.meta({ description: 'units × ruby_multiplier: guaranteed minimum if the option is correct.' }),
    balance_after: Dec4.meta({ description: 'Coin balance after the order.' }),
    created_at: Timestamp,
    url: ResourceUrl,
    replayed,
  })
  .meta({ description: 'A placed order.' });
export type Order = z.infer<typeof Order>;

export const Back = z
  .strictObject(
    aliased({
      id: z.string().min(1),
      opinion_id: Uuid,
      topic_id: Uuid,
      seq: z.int().positive(),
      price_coins: Dec4,
      balance_after: Dec4,
      max_relay_payback_rubies: Dec4.meta({ description: maxRelayPayback }),
      created_at: Timestamp,
      url: ResourceUrl,
      replayed,
    }),
  )
  .superRefine(aliasesMatch)
  .meta({ description: 'A placed back.' });
export type Back = z.infer<typeof Back>;

/**
 * POST /opinions: the owner's Opinion (docs/contract/resources.md#owner-opinion) with `replayed`, which is always
 * false: a publish is never replayed (a retry is 409 CONFIRM_TOKEN_USED).
 */
export const PublishedOpinion = OwnerOpinion.extend({
  replayed: z.literal(false).meta({ description: 'Always false: a published opinion is never replayed.' }),
}).meta({ description: 'A published opinion.' });
export type PublishedOpinion = z.infer<typeof PublishedOpinion>;
