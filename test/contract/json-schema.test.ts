import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as contract from '../../src/contract/index.ts';

const schemas: Array<[string, z.ZodType]> = Object.entries(contract as Record<string, unknown>).flatMap(([name, value]) =>
  value instanceof z.ZodType ? [[name, value] as [string, z.ZodType]] : [],
);

describe('every contract schema converts to JSON Schema', () => {
  it('finds the schemas', () => {
    expect(schemas.length).toBeGreaterThan(40);
  });
  it.each(schemas)('%s', (_name, schema) => {
    expect(() => z.toJSONSchema(schema)).not.toThrow();
    expect(() => z.toJSONSchema(schema, { io: 'input' })).not.toThrow();
  });
});

describe('MCP output schemas are objects at the root', () => {
  const outputs = {
    TopicList: contract.TopicList,
    TopicDetail: contract.TopicDetail,
    CommentList: contract.CommentList,
    CategoryList: contract.CategoryList,
    MyProfile: contract.MyProfile,
    PositionList: contract.PositionList,
    OwnerOpinionList: contract.OwnerOpinionList,
    BackedOpinionList: contract.BackedOpinionList,
    WatchlistList: contract.WatchlistList,
    LedgerList: contract.LedgerList,
    OrderPreview: contract.OrderPreview,
    OpinionPreview: contract.OpinionPreview,
    BackPreview: contract.BackPreview,
    Order: contract.Order,
    OwnerOpinion: contract.OwnerOpinion,
    Back: contract.Back,
  };
  it.each(Object.entries(outputs))('%s', (_name, schema) => {
    expect(z.toJSONSchema(schema)).toMatchObject({ type: 'object' });
  });
  it('decimals are string patterns and descriptions come through', () => {
    const json = z.toJSONSchema(contract.PredictionCard) as {
      properties: Record<string, { type?: string; pattern?: string; description?: string }>;
    };
    expect(json.properties['total_volume']).toMatchObject({ type: 'string', pattern: '^-?\\d+\\.\\d{4}$' });
    expect(json.properties['total_volume']?.description).toBeTruthy();
  });
});
