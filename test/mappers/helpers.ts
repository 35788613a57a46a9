/** Shared by the mapper tests: a context per language and a contract check with readable failures. */
import { expect } from 'vitest';
import type { z } from 'zod';
import type { Language } from '../../src/i18n/languages.ts';
import type { MapContext } from '../../mappers/context.ts';

export const WEB = 'https://app.example.com';

export function ctx(lang: Language = 'en', webBaseUrl: string = WEB): MapContext {
  return { lang, webBaseUrl };
}

/** Asserts that `value` satisfies the contract schema exactly (no stripped or missing field). */
export function expectContract<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  expect(result.error?.issues ?? []).toEqual([]);
  // Strict schemas: parsing must not have dropped anything either.
  expect(result.data).toEqual(value);
  return result.data as z.output<T>;
}

export const uuid = (suffix: string) => `00000000-0000-4000-8000-${suffix.padStart(12, '0')}`;
