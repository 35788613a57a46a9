/**
 * The compaction of tool schemas never narrows them: every value the full contract schema
 * accepts, the compact output schema accepts too (checked with Ajv on the contract's samples),
 * and each rewrite does what it says.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as c from '../../../src/contract/index.ts';
import { compactInputSchema, compactOutputSchema } from '../../../src/surfaces/mcp/compact-schema.ts';
import * as s from '../../contract/samples.ts';

const ajv = new Ajv2020({ strict: false, validateFormats: false });
const full = (schema: z.ZodType) => ({
  ...(z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>),
  type: 'object',
});

describe('compactOutputSchema', () => {
  const cases: [string, z.ZodType, unknown][] = [
    ['prediction card', c.TopicCard, s.predictionCard],
    ['poll card', c.TopicCard, s.pollCard],
    ['prediction detail', c.TopicDetail, s.predictionDetail],
    ['poll detail', c.TopicDetail, s.pollDetail],
    ['comment', c.Comment, s.comment],
    ['profile', c.MyProfile, s.myProfile],
    ['position', c.Position, s.position],
    ['owner opinion', c.OwnerOpinion, s.ownerOpinion],
    ['backed opinion', c.BackedOpinion, s.backedOpinion],
    ['ledger entry', c.LedgerEntry, s.ledgerEntry],
    ['order preview', c.OrderPreview, s.orderPreview],
    ['opinion preview', c.OpinionPreview, s.opinionPreview],
    ['back preview', c.BackPreview, s.backPreview],
    ['order', c.Order, s.order],
    ['back', c.Back, s.back],
  ];

  it.each(cases)('accepts what the full schema accepts: %s', (_name, schema, sample) => {
    const original = full(schema);
    expect(ajv.validate(original, sample), JSON.stringify(ajv.errors)).toBe(true);
    const compact = compactOutputSchema(original);
    expect(ajv.validate(compact, sample), JSON.stringify(ajv.errors)).toBe(true);
    expect(JSON.stringify(compact).length).toBeLessThan(JSON.stringify(original).length / 2);
  });

  it('merges a union of object shapes into one object naming every field once', () => {
    const out = compactOutputSchema({
      type: 'object',
      oneOf: [
        { type: 'object', properties: { type: { type: 'string', const: 'a' }, x: { type: 'integer' } }, required: ['type', 'x'] },
        { type: 'object', properties: { type: { type: 'string', const: 'b' }, y: { type: 'string' } }, required: ['type', 'y'] },
      ],
    });
    expect(out).toEqual({
      type: 'object',
      // An enum of strings says its type: the `type` beside it is left out.
      properties: { type: { enum: ['a', 'b'] }, x: { type: 'integer' }, y: { type: 'string' } },
    });
  });

  it('keeps nullable types as anyOf branches (type arrays are not portable), and a union subsumed by a bare type as that type', () => {
    const out = compactOutputSchema({
      type: 'object',
      properties: {
        n: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        e: { anyOf: [{ type: 'string' }, { type: 'string', const: '' }] },
        o: { anyOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { type: 'null' }] },
      },
    });
    expect(out['properties']).toEqual({
      n: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      e: { type: 'string' },
      o: { anyOf: [{ properties: { a: { type: 'string' } } }, { type: 'null' }] },
    });
  });

  it('drops deprecated fields, prose, formats and closed-object flags, but keeps the root type', () => {
    const out = compactOutputSchema({
      type: 'object',
      description: 'x',
      additionalProperties: false,
      properties: {
        id: { type: 'string', format: 'uuid', pattern: '^.+$', description: 'id' },
        old: { type: 'string', deprecated: true },
        n: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
      },
      required: ['id', 'old', 'n'],
    });
    expect(out).toEqual({ type: 'object', properties: { id: { type: 'string' }, n: { type: 'integer' } } });
  });

  it('states a shape repeated within one schema once, under $defs', () => {
    const user = { type: 'object', properties: { id: { type: 'string' }, handle: { type: 'string' }, nickname: { type: 'string' } } };
    const out = compactOutputSchema({ type: 'object', properties: { author: user, creator: user } });
    expect(out).toEqual({
      type: 'object',
      properties: { author: { $ref: '#/$defs/author' }, creator: { $ref: '#/$defs/author' } },
      $defs: { author: { properties: user.properties } },
    });
  });
});

describe('compactInputSchema', () => {
  it('keeps descriptions, bounds and strictness; drops what a format says and sample ids', () => {
    const out = compactInputSchema({
      type: 'object',
      properties: {
        topic_id: {
          type: 'string',
          format: 'uuid',
          pattern: '^x$',
          examples: ['00000000-0000-4000-8000-000000000001'],
          description: 'Topic id.',
        },
        limit: { type: 'integer', minimum: 1, maximum: 100 },
        n: { type: 'integer', maximum: Number.MAX_SAFE_INTEGER },
      },
      required: ['topic_id'],
      additionalProperties: false,
    });
    expect(out).toEqual({
      type: 'object',
      properties: {
        topic_id: { type: 'string', format: 'uuid', description: 'Topic id.' },
        limit: { type: 'integer', minimum: 1, maximum: 100 },
        n: { type: 'integer' },
      },
      required: ['topic_id'],
      additionalProperties: false,
    });
  });
});
