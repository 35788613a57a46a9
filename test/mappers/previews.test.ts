import { describe, expect, it } from 'vitest';
import { recordedData } from '../../fixtures/recorded/index.ts';
import * as c from '../../src/contract/index.ts';
import * as api from '../../src/upstream/internal-api.ts';
import { mapBackSummary, mapOpinionSummary, mapOrderSummary } from '../../mappers/previews.ts';
import { ctx, expectContract, uuid } from './helpers.ts';

const market = recordedData('prediction.market.lmsr-boosted.json', api.MarketDetail);
const legacy = recordedData('prediction.market.share-pool.json', api.MarketDetail);
const quote = recordedData('prediction.quote.json', api.Quote);
const outcome = market.outcomes[0];
if (outcome === undefined) throw new Error('fixture has no outcome');

describe('order summary', () => {
  it('placeable: every figure exact', () => {
    const summary = expectContract(
      c.OrderSummary,
      mapOrderSummary({ market, outcome, stakeCoins: 50, balanceCoins: 10000, quote, canPlace: true }, ctx()),
    );
    expect(summary).toEqual({
      topic_title: 'Will it rain in Taipei tomorrow?',
      option_label: 'Yes',
      stake_coins: '50.0000',
      balance_before: '10000.0000',
      balance_after: '9950.0000',
      price_now: '0.6180',
      price_after: '0.6414',
      payout_if_correct_rubies: '118.6851',
      ruby_multiplier: '1.5000',
      avg_price: '0.631920',
      close_time: '2026-01-31T00:00:00.000Z',
      mechanism: 'v21_lmsr',
    });
    expectContract(c.OrderPreview, { can_place: true, summary, confirm_token: 't', expires_at: '2026-01-01T00:05:00.000Z' });
  });

  it('STAKE_OUT_OF_RANGE: stake echoed unclamped, balance unchanged, fill figures empty', () => {
    const summary = mapOrderSummary({ market, outcome, stakeCoins: 5000, balanceCoins: 0.1 + 0.2, quote: null, canPlace: false }, ctx());
    expect(summary).toMatchObject({
      stake_coins: '5000.0000',
      balance_before: '0.3000',
      balance_after: '0.3000',
      price_now: '0.6180',
      price_after: '',
      payout_if_correct_rubies: '',
      ruby_multiplier: '',
      avg_price: '',
    });
    expectContract(c.OrderPreview, {
      can_place: false,
      summary,
      reason: 'STAKE_OUT_OF_RANGE',
      details: { min_coins: '10.0000', max_coins: '1000.0000' },
    });
  });

  it('MECHANISM_UNSUPPORTED on a share-pool topic', () => {
    const legacyOutcome = legacy.outcomes[1];
    if (legacyOutcome === undefined) throw new Error('fixture has no outcome');
    const summary = mapOrderSummary(
      { market: legacy, outcome: legacyOutcome, stakeCoins: 100, balanceCoins: 10000, quote: null, canPlace: false },
      ctx(),
    );
    expect(summary).toMatchObject({ mechanism: 'v2_share', ruby_multiplier: '', price_now: '0.2500', option_label: 'B' });
    expectContract(c.OrderPreview, { can_place: false, summary, reason: 'MECHANISM_UNSUPPORTED' });
  });
});

describe('opinion summary', () => {
  const replyTo = recordedData('prediction.opinion-detail.json', api.OpinionDetail);

  it('with a position and a reply', () => {
    const summary = expectContract(
      c.OpinionSummary,
      mapOpinionSummary(
        { market, content: '  It will pour.  ', sideOutcome: outcome, replyTo, balanceCoins: 10, canPublish: true },
        ctx('zh-TW'),
      ),
    );
    expect(summary).toEqual({
      topic_title: 'Will it rain in Taipei tomorrow? (繁)',
      fee_coins: '0.3000',
      balance_after: '9.7000',
      side_option_label: 'Yes (繁)',
      content_preview: 'It will pour.',
      reply_to: { id: uuid('e001'), excerpt: '會下雨' },
    });
  });

  it('without a position: empty side label, balance unchanged', () => {
    const summary = mapOpinionSummary(
      { market, content: 'x', sideOutcome: null, replyTo: null, balanceCoins: 10, canPublish: false },
      ctx(),
    );
    expect(summary).toMatchObject({ side_option_label: '', balance_after: '10.0000', reply_to: null });
    expectContract(c.OpinionPreview, { can_publish: false, summary, reason: 'NO_POSITION' });
  });
});

describe('back summary', () => {
  const opinion = recordedData('prediction.opinion-detail.json', api.OpinionDetail);

  it.each([
    [true, '9.7000'],
    [false, '10.0000'],
  ] as const)('can back %s', (canBack, balanceAfter) => {
    const summary = expectContract(c.BackSummary, mapBackSummary({ opinion, balanceCoins: 10, canBack }, ctx('zh-CN')));
    expect(summary).toMatchObject({
      topic_title: 'Will it rain in Taipei tomorrow? (简)',
      opinion_excerpt: '会下雨',
      backer_count: 1,
      my_seq_if_now: 2,
      price_coins: '0.3000',
      balance_before: '10.0000',
      balance_after: balanceAfter,
      max_relay_payback_rubies: '0.0000',
      max_relay_payback_sapphires: '0.0000',
      close_time: '2026-01-31T00:00:00.000Z',
    });
    expect(summary.author.handle).toBe('bob');
  });
});
