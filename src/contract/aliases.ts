/**
 * The deprecated sapphire fields, in one table (docs/contract/versioning.md#sapphire-aliases).
 * Sapphires were merged 1:1 into rubies: each alias travels with the very value of its ruby
 * field, and the retired balance is always zero. This table produces the schema fields (with
 * their deprecation metadata), the refinement that holds each alias equal to its replacement,
 * and the mappers' output, so removing them in contract 3.0.0 is an edit of this file alone:
 * empty both tables.
 */
import { z } from 'zod';
import { Dec4 } from './common.ts';

/** Replacement field → its deprecated alias, which always carries the same string. */
const ALIASES = {
  ruby_payback: 'sapphire_payback',
  ruby_total: 'sapphire_total',
  max_relay_payback_rubies: 'max_relay_payback_sapphires',
} as const;

/** Retired fields that stay on the wire with a fixed value: the merged sapphire balance. */
const RETIRED = {
  sapphires: { value: '0.0000', replacement: 'rubies' },
} as const;

type Aliases = typeof ALIASES;
type Replacement = keyof Aliases;
type Retired = keyof typeof RETIRED;

/** An object with the alias of every replacement field it has. */
export type WithAliases<T> = T & { [K in keyof T & Replacement as Aliases[K]]: T[K] };

type AliasShape<S extends z.ZodRawShape> = { [K in keyof S & Replacement as Aliases[K]]: typeof Dec4 };

function isReplacement(name: string): name is Replacement {
  return Object.hasOwn(ALIASES, name);
}

/** A schema shape with the alias field of every replacement field it declares, marked deprecated. */
export function aliased<S extends z.ZodRawShape>(shape: S): S & AliasShape<S> {
  const out: Record<string, z.core.$ZodType> = { ...shape };
  for (const name of Object.keys(shape)) {
    if (!isReplacement(name)) continue;
    out[ALIASES[name]] = Dec4.meta({
      description: `Deprecated alias of \`${name}\`, always the same value. Removed in 3.0.0.`,
      deprecated: true,
    });
  }
  return out as S & AliasShape<S>;
}

/** The refinement every aliased object carries: an alias never differs from its replacement. */
export function aliasesMatch(value: Record<string, unknown>, ctx: z.RefinementCtx): void {
  for (const [replacement, alias] of Object.entries(ALIASES)) {
    if (replacement in value && value[alias] !== value[replacement]) {
      ctx.addIssue({ code: 'custom', path: [alias], message: `${alias} must equal ${replacement}` });
    }
  }
}

/** A mapper's output with its aliases filled in from the replacement fields. */
export function withAliases<T extends object>(body: T): WithAliases<T> {
  const out: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const name of Object.keys(body)) if (isReplacement(name)) out[ALIASES[name]] = out[name];
  return out as WithAliases<T>;
}

type RetiredValues = { [K in Retired]: (typeof RETIRED)[K]['value'] };

/** Schema fields of the retired fields: each its one value, marked deprecated (MyProfile). */
export function retiredFields(): { [K in Retired]: z.ZodLiteral<RetiredValues[K]> } {
  const entries = Object.entries(RETIRED).map(([name, { value, replacement }]) => [
    name,
    z
      .literal(value)
      .meta({ description: `Deprecated, always "${value}": merged into \`${replacement}\`. Removed in 3.0.0.`, deprecated: true }),
  ]);
  return Object.fromEntries(entries) as { [K in Retired]: z.ZodLiteral<RetiredValues[K]> };
}

const RETIRED_VALUES: Readonly<RetiredValues> = Object.freeze(
  Object.fromEntries(Object.entries(RETIRED).map(([name, { value }]) => [name, value])) as RetiredValues,
);

/** The values the retired fields always carry, for the mapper's output (built once: every /me answer spreads them). */
export function retiredValues(): Readonly<RetiredValues> {
  return RETIRED_VALUES;
}
