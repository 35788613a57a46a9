import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as c from '../../src/contract/index.ts';
import * as s from './samples.ts';

type Obj = Record<string, unknown>;
const without = (o: object, key: string): Obj => {
  const copy: Obj = { ...o };
  delete copy[key];
  return copy;
};
const ok = (schema: z.ZodType, value: unknown) => schema.safeParse(value).success;

/** [name, schema, good sample, a required field, a dec4 field or null] */
const resources: Array<[string, z.ZodType, object, string, string | null]> = [
  ['UserRef', c.UserRef, s.userRef, 'handle', null],
  ['PredictionCard', c.PredictionCard, s.predictionCard, 'moderation_status', 'total_volume'],
  ['PollCard', c.PollCard, s.pollCard, 'votes_visible', 'total_stake'],
  ['TopicCard (prediction)', c.TopicCard, s.predictionCard, 'url', 'total_volume'],
  ['TopicCard (poll)', c.TopicCard, s.pollCard, 'voters_count', 'total_stake'],
  ['PredictionDetail', c.PredictionDetail, s.predictionDetail, 'stake_rules', 'total_volume'],
  ['PollDetail', c.PollDetail, s.pollDetail, 'category', 'total_stake'],
  ['TopicDetail', c.TopicDetail, s.predictionDetail, 'mechanism', 'total_volume'],
  ['Comment', c.Comment, s.comment, 'author_position', null],
  ['MyProfile', c.MyProfile, s.myProfile, 'created_at', 'coins'],
  ['Position', c.Position, s.position, 'sold', 'stake_coins'],
  ['OwnerOpinion', c.OwnerOpinion, s.ownerOpinion, 'reply_to', null],
  ['BackedOpinion', c.BackedOpinion, s.backedOpinion, 'seq', 'price_coins'],
  ['LedgerEntry', c.LedgerEntry, s.ledgerEntry, 'topic_id', 'amount'],
  ['Contest', c.Contest, s.contest, 'entries_count', null],
  ['OrderSummary', c.OrderSummary, s.orderSummary, 'mechanism', 'balance_before'],
  ['OrderPreview', c.OrderPreview, s.orderPreview, 'summary', null],
  ['OpinionPreview', c.OpinionPreview, s.opinionPreview, 'summary', null],
  ['BackPreview', c.BackPreview, s.backPreview, 'summary', null],
  ['Order', c.Order, s.order, 'replayed', 'stake_coins'],
  ['Back', c.Back, s.back, 'replayed', 'price_coins'],
];

describe.each(resources)('%s', (_name, schema, good, required, decField) => {
  it('accepts the sample', () => {
    const r = schema.safeParse(good);
    expect(r.error?.issues ?? []).toEqual([]);
  });
  it(`rejects it without ${required}`, () => {
    expect(ok(schema, without(good, required))).toBe(false);
  });
  it('rejects an unknown field', () => {
    expect(ok(schema, { ...good, surprise: 1 })).toBe(false);
  });
  if (decField !== null) {
    it(`rejects ${decField} as a float, with 3 places, or unpadded`, () => {
      expect(ok(schema, { ...good, [decField]: 0.3 })).toBe(false);
      expect(ok(schema, { ...good, [decField]: '0.300' })).toBe(false);
      expect(ok(schema, { ...good, [decField]: '0.3' })).toBe(false);
    });
  }
});

describe('topic cards', () => {
  it('refuse prediction-only fields on a poll', () => {
    for (const [key, value] of [
      ['total_volume', '1.0000'],
      ['traders_count', 1],
      ['mechanism', 'v21_lmsr'],
    ] as const) {
      expect(ok(c.TopicCard, { ...s.pollCard, [key]: value })).toBe(false);
      expect(ok(c.PollCard, { ...s.pollCard, [key]: value })).toBe(false);
    }
  });
  it('refuse poll-only fields on a prediction', () => {
    for (const [key, value] of [
      ['voters_count', 1],
      ['total_stake', '1.0000'],
      ['votes_visible', true],
    ] as const) {
      expect(ok(c.TopicCard, { ...s.predictionCard, [key]: value })).toBe(false);
    }
  });
  it('refuse `resolving` on a poll, which predictions may have', () => {
    expect(ok(c.TopicCard, { ...s.pollCard, status: 'resolving' })).toBe(false);
    expect(ok(c.TopicCard, { ...s.predictionCard, status: 'resolving' })).toBe(true);
  });
  it('refuse a null probability on a prediction option, allow it on a poll option', () => {
    const [first, second] = s.predictionCard.options;
    expect(ok(c.PredictionCard, { ...s.predictionCard, options: [{ ...first, probability: null }, second] })).toBe(false);
    expect(ok(c.PollCard, s.pollCard)).toBe(true);
  });
  it('refuse an unknown type or status', () => {
    expect(ok(c.TopicCard, { ...s.predictionCard, type: 'contest' })).toBe(false);
    expect(ok(c.TopicCard, { ...s.predictionCard, status: 'ACTIVE' })).toBe(false);
    expect(ok(c.TopicCard, { ...s.predictionCard, moderation_status: 'PASS' })).toBe(false);
  });
  it('owner cards carry moderation_note; public cards must not', () => {
    expect(ok(c.OwnerTopicCard, { ...s.predictionCard, moderation_note: null })).toBe(true);
    expect(ok(c.OwnerTopicCard, { ...s.pollCard, moderation_note: 'Spam' })).toBe(true);
    expect(ok(c.OwnerTopicCard, s.predictionCard)).toBe(false);
    expect(ok(c.TopicCard, { ...s.predictionCard, moderation_note: null })).toBe(false);
  });
  it('watchlist items are cards plus added_at', () => {
    expect(ok(c.WatchlistItem, { ...s.pollCard, added_at: '2026-01-01T00:00:00.000Z' })).toBe(true);
    expect(ok(c.WatchlistItem, s.pollCard)).toBe(false);
  });
});

describe('topic detail', () => {
  it('ruby_boost and resolved_at are optional, stake rules integers', () => {
    expect(ok(c.PredictionDetail, without(s.predictionDetail, 'ruby_boost'))).toBe(true);
    expect(ok(c.PredictionDetail, { ...s.predictionDetail, ruby_boost: null })).toBe(false);
    expect(ok(c.PollDetail, without(s.pollDetail, 'resolved_at'))).toBe(true);
    expect(ok(c.PredictionDetail, { ...s.predictionDetail, stake_rules: { ...s.predictionDetail.stake_rules, min_coins: 10.5 } })).toBe(
      false,
    );
    expect(ok(c.PredictionDetail, { ...s.predictionDetail, stake_rules: { ...s.predictionDetail.stake_rules, min_coins: '10' } })).toBe(
      false,
    );
  });
  it('prediction detail options need implied_price; poll detail has no stake rules', () => {
    expect(ok(c.PredictionDetail, { ...s.predictionDetail, options: s.predictionCard.options })).toBe(false);
    expect(ok(c.PollDetail, { ...s.pollDetail, stake_rules: s.predictionDetail.stake_rules })).toBe(false);
    expect(ok(c.TopicDetail, { ...s.pollDetail, mechanism: 'v21_lmsr' })).toBe(false);
  });
});

describe('owner records', () => {
  it('profile sapphires are always "0.0000"', () => {
    expect(ok(c.MyProfile, { ...s.myProfile, sapphires: '0.3000' })).toBe(false);
  });
  it('a sold position has won, payout_rubies and payout_if_correct_rubies null', () => {
    const sold = { ...s.position, status: 'sold', sold: true, sold_rubies: '0.3000', payout_if_correct_rubies: null };
    expect(ok(c.Position, sold)).toBe(true);
    expect(ok(c.Position, { ...sold, payout_if_correct_rubies: '1.0000' })).toBe(false);
    expect(ok(c.Position, { ...sold, won: false })).toBe(false);
    expect(ok(c.Position, { ...sold, payout_rubies: '0.0000' })).toBe(false);
  });
  it('avg_price has 6 places', () => {
    expect(ok(c.Position, { ...s.position, avg_price: '0.6309' })).toBe(false);
  });
  it('sapphire aliases must equal their ruby fields', () => {
    expect(ok(c.OwnerOpinion, { ...s.ownerOpinion, sapphire_payback: '0.0000' })).toBe(false);
    expect(ok(c.BackedOpinion, { ...s.backedOpinion, sapphire_total: '1.0000' })).toBe(false);
    expect(ok(c.Back, { ...s.back, max_relay_payback_sapphires: '0.0000' })).toBe(false);
  });
  it('ledger types are the lowercase enum', () => {
    for (const type of ['settlement_payout', 'position_sale', 'opinion_payback', 'sapphire_conversion', 'order_stake']) {
      expect(ok(c.LedgerEntry, { ...s.ledgerEntry, type })).toBe(true);
    }
    expect(ok(c.LedgerEntry, { ...s.ledgerEntry, type: 'SAPPHIRE_CONVERSION' })).toBe(false);
  });
});

describe('previews', () => {
  const refused = {
    can_place: false,
    summary: {
      ...s.orderSummary,
      balance_after: s.orderSummary.balance_before,
      price_after: '',
      payout_if_correct_rubies: '',
      ruby_multiplier: '',
      avg_price: '',
    },
    reason: 'STAKE_OUT_OF_RANGE',
    details: { min_coins: '10.0000', max_coins: '1000.0000' },
  };
  it('accept a refusal with STAKE_OUT_OF_RANGE details and empty figures', () => {
    expect(c.OrderPreview.safeParse(refused).error?.issues ?? []).toEqual([]);
  });
  it('details go only with STAKE_OUT_OF_RANGE', () => {
    expect(ok(c.OrderPreview, without(refused, 'details'))).toBe(false);
    expect(ok(c.OrderPreview, { ...refused, reason: 'TOPIC_CLOSED' })).toBe(false);
    expect(ok(c.OrderPreview, { ...without(refused, 'details'), reason: 'TOPIC_CLOSED' })).toBe(true);
  });
  it('a token goes with can_* true and a reason with false, never both', () => {
    expect(ok(c.OrderPreview, without(s.orderPreview, 'confirm_token'))).toBe(false);
    expect(ok(c.OrderPreview, without(s.orderPreview, 'expires_at'))).toBe(false);
    expect(ok(c.OrderPreview, { ...s.orderPreview, reason: 'TOPIC_CLOSED' })).toBe(false);
    expect(ok(c.OrderPreview, { ...refused, confirm_token: 't', expires_at: '2026-01-01T00:00:00Z' })).toBe(false);
    expect(ok(c.OpinionPreview, without(s.opinionPreview, 'reason'))).toBe(false);
    expect(ok(c.BackPreview, { ...s.backPreview, reason: 'ALREADY_BACKED' })).toBe(false);
  });
  it('reasons are the closed lists', () => {
    expect(ok(c.OrderPreview, { ...refused, reason: 'NOPE' })).toBe(false);
    expect(ok(c.OpinionPreview, { ...s.opinionPreview, reason: 'SIDE_REQUIRED' })).toBe(true);
    expect(ok(c.OpinionPreview, { ...s.opinionPreview, reason: 'ALREADY_BACKED' })).toBe(false);
  });
  it('back preview carries both relay payback names', () => {
    expect(ok(c.BackPreview, { ...s.backPreview, summary: without(s.backPreview.summary, 'max_relay_payback_sapphires') })).toBe(false);
  });
});

describe('request bodies', () => {
  it('the executing body is exactly {confirm_token}', () => {
    expect(ok(c.ConfirmRequest, { confirm_token: 'abc' })).toBe(true);
    expect(ok(c.ConfirmRequest, {})).toBe(false);
    expect(ok(c.ConfirmRequest, { confirm_token: '' })).toBe(false);
    expect(ok(c.ConfirmRequest, { confirm_token: 'abc', amount_coins: 5 })).toBe(false);
    expect(ok(c.ConfirmRequest, { confirm_token: 42 })).toBe(false);
  });
  it('amount_coins is a JSON integer of at least 1', () => {
    const option_id = s.predictionCard.options[0]?.id;
    expect(ok(c.OrderPreviewRequest, { option_id })).toBe(true);
    expect(ok(c.OrderPreviewRequest, { option_id, amount_coins: 50 })).toBe(true);
    for (const bad of ['50', 50.5, 0, -1]) expect(ok(c.OrderPreviewRequest, { option_id, amount_coins: bad })).toBe(false);
  });
});
