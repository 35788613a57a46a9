/**
 * Picking one string out of a backend locale map.
 *
 * Any locale may be missing or empty upstream. The fallback is fixed so that the same map
 * always yields the same text: the requested language, then English, then the first non-empty
 * value in LANGUAGES order, then ''. Tags the contract does not know are ignored.
 */
import { APP_LOCALE_TAGS, toAppLocale, type Language } from './languages.ts';

/** A backend locale map, keyed by app locale tag (`en`, `zh_TW`, `in`, …). */
export type LocaleText = Readonly<Record<string, string>>;

function usable(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== '';
}

export function pickText(map: LocaleText, lang: Language): string {
  const requested = map[toAppLocale(lang)];
  if (usable(requested)) return requested;
  const english = map['en'];
  if (usable(english)) return english;
  for (const tag of APP_LOCALE_TAGS) {
    const value = map[tag];
    if (usable(value)) return value;
  }
  return '';
}
