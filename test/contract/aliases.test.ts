/** The one table of deprecated sapphire fields: schema fields, refinement and mapper output. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { aliased, aliasesMatch, retiredFields, retiredValues, withAliases } from '../../src/contract/aliases.ts';
import { Back, BackedOpinion, MyProfile, OwnerOpinion } from '../../src/contract/index.ts';
import { Dec4 } from '../../src/contract/common.ts';

describe('deprecated aliases', () => {
  const Thing = z.strictObject(aliased({ ruby_total: Dec4, other: z.string() })).superRefine(aliasesMatch);

  it('adds the alias of each replacement field, marked deprecated, and nothing else', () => {
    expect(Object.keys(Thing.shape)).toEqual(['ruby_total', 'other', 'sapphire_total']);
    const json = z.toJSONSchema(Thing) as { properties: Record<string, { deprecated?: boolean; description?: string }> };
    expect(json.properties['sapphire_total']?.deprecated).toBe(true);
    expect(json.properties['sapphire_total']?.description).toContain('`ruby_total`');
    expect(json.properties['ruby_total']?.deprecated).toBeUndefined();
  });

  it('refuses an alias that differs from its replacement', () => {
    expect(Thing.safeParse({ ruby_total: '1.0000', sapphire_total: '1.0000', other: 'x' }).success).toBe(true);
    const bad = Thing.safeParse({ ruby_total: '1.0000', sapphire_total: '2.0000', other: 'x' });
    expect(bad.error?.issues[0]?.path).toEqual(['sapphire_total']);
  });

  it("fills the aliases of a mapper's output from the replacement fields", () => {
    expect(withAliases({ ruby_payback: '3.5000', id: 'o1' })).toEqual({ ruby_payback: '3.5000', sapphire_payback: '3.5000', id: 'o1' });
    expect(withAliases({ max_relay_payback_rubies: '0.2500' })).toEqual({
      max_relay_payback_rubies: '0.2500',
      max_relay_payback_sapphires: '0.2500',
    });
    expect(withAliases({ rubies: '1.0000' })).toEqual({ rubies: '1.0000' });
  });

  it('keeps the retired sapphire balance at its one value', () => {
    expect(retiredValues()).toEqual({ sapphires: '0.0000' });
    expect(retiredFields().sapphires.safeParse('0.0000').success).toBe(true);
    expect(retiredFields().sapphires.safeParse('1.0000').success).toBe(false);
  });

  it('is what every contract resource with a sapphire field uses', () => {
    expect(Object.keys(OwnerOpinion.shape)).toContain('sapphire_payback');
    expect(Object.keys(BackedOpinion.shape)).toContain('sapphire_total');
    expect(Object.keys(Back.shape)).toContain('max_relay_payback_sapphires');
    expect(Object.keys(MyProfile.shape)).toContain('sapphires');
  });
});
