import { describe, expect, it } from 'vitest';
import { recordedData } from '../../fixtures/recorded/index.ts';
import { PriceHistory } from '../../src/contract/index.ts';
import * as api from '../../src/upstream/internal-api.ts';
import { mapPriceHistory } from '../../mappers/history.ts';
import { expectContract, uuid } from './helpers.ts';

const YES = uuid('f0011');
const NO = uuid('f0012');

describe('price history', () => {
  const history = recordedData('prediction.price-history.json', api.PriceHistory);

  it('is a complete list, oldest first, with exact probabilities', () => {
    const list = expectContract(PriceHistory, mapPriceHistory(history, [YES, NO]));
    expect(list.next_cursor).toBeNull();
    expect(list.has_more).toBe(false);
    expect(list.data).toEqual([
      {
        timestamp: '2026-01-01T00:00:00.000Z',
        probabilities: [
          { option_id: YES, probability: '0.5000' },
          { option_id: NO, probability: '0.5000' },
        ],
      },
      {
        timestamp: '2026-01-01T01:00:00.000Z',
        probabilities: [
          { option_id: YES, probability: '0.3000' },
          { option_id: NO, probability: '0.0000' },
        ],
      },
      {
        timestamp: '2026-01-01T02:00:00.000Z',
        probabilities: [
          { option_id: YES, probability: '0.4000' },
          { option_id: NO, probability: '0.6000' },
        ],
      },
    ]);
  });

  it('without an option order keeps the backend order', () => {
    const last = mapPriceHistory(history).data[2];
    expect(last?.probabilities.map((p) => p.option_id)).toEqual([NO, YES]);
  });

  it('an empty history is an empty list', () => {
    expect(mapPriceHistory({ points: [] })).toEqual({ data: [], next_cursor: null, has_more: false });
  });
});

describe('price history edge', () => {
  it('drops an empty option key', () => {
    const out = mapPriceHistory({ points: [{ t: 0, p: { '': 0.5, [YES]: 0.5 } }] });
    expectContract(PriceHistory, out);
    expect(out.data[0]?.probabilities).toEqual([{ option_id: YES, probability: '0.5000' }]);
  });
});
