import { describe, expect, it } from 'vitest';
import { recordedData } from '../../fixtures/recorded/index.ts';
import * as c from '../../src/contract/index.ts';
import * as api from '../../src/upstream/internal-api.ts';
import { mapBack, mapOrder, mapPublishedOpinion } from '../../mappers/writes.ts';
import { ctx, expectContract, uuid, WEB } from './helpers.ts';

describe('order', () => {
  const placed = recordedData('prediction.order.json', api.PlacedOrder);

  it.each([false, true])('replayed %s', (replayed) => {
    const order = expectContract(c.Order, mapOrder(placed, ctx('zh-TW'), replayed));
    expect(order).toEqual({
      id: '880001',
      topic_id: uuid('f001'),
      option_id: uuid('f0011'),
      option_label: 'Yes (繁)',
      stake_coins: '50.0000',
      units: '79.1235',
      avg_price: '0.631920', // 0.63192035
      ruby_multiplier: '1.5000',
      payout_if_correct_rubies: '118.6851', // 79.12345678 × 1.5 = 118.68518517, rounded down
      balance_after: '9950.0000', // 9950.000000000002
      created_at: '2026-01-01T03:00:00.000Z',
      url: `${WEB}/predictions/${uuid('f001')}`,
      replayed,
    });
  });
});

describe('back', () => {
  it('both relay payback names carry the same string, not the backend legacy figure', () => {
    const placed = recordedData('prediction.back.json', api.PlacedBack);
    expect(placed.maxRelayPaybackSapphire).toBe(0);
    const back = expectContract(c.Back, mapBack(placed, ctx(), true));
    expect(back).toEqual({
      id: '660001',
      opinion_id: uuid('e001'),
      topic_id: uuid('f001'),
      seq: 2,
      price_coins: '0.3000',
      balance_after: '9949.7000',
      max_relay_payback_rubies: '2.0001', // 2.00005, half up
      max_relay_payback_sapphires: '2.0001',
      created_at: '2026-01-01T04:00:00.000Z',
      url: `${WEB}/predictions/${uuid('f001')}/opinions/${uuid('e001')}`,
      replayed: true,
    });
  });
});

describe('published opinion', () => {
  it("is the owner's opinion", () => {
    const published = recordedData('prediction.publish-opinion.json', api.PublishedOpinion);
    const opinion = expectContract(c.OwnerOpinion, mapPublishedOpinion(published, ctx('ms')));
    expect(opinion).toMatchObject({
      id: uuid('e103'),
      content: 'Freshly published',
      side_option_label: 'Yes (ms)',
      ruby_payback: '0.0000',
      sapphire_payback: '0.0000',
    });
    expect(opinion).not.toHaveProperty('fee');
    expect(opinion).not.toHaveProperty('balance_after');
  });
});
