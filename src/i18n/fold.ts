/**
 * Folding a free-form language tag onto a supported language (docs/contract/localisation.md#language-folding).
 *
 * Exact codes match case-insensitively with `_` read as `-`. Anything else goes through CLDR
 * likely subtags (Intl.Locale#maximize), so that `zh` lands on Simplified (zh-CN), `zh-HK` on
 * Traditional (zh-TW) and `en-GB` on `en`, without a hand-kept alias table that would drift.
 */
import { LANGUAGES, type Language } from './languages.ts';

/** Longest tag worth parsing; real tags are far shorter, so longer input is refused cheaply. */
const MAX_TAG_LENGTH = 64;

const EXACT: ReadonlyMap<string, Language> = new Map([
  ...LANGUAGES.map((lang) => [lang.toLowerCase(), lang] as const),
  // The app's legacy Indonesian tag; Intl would canonicalise it too, this just says so plainly.
  ['in', 'id'],
]);

/** Primary language subtags (after maximize) of the supported non-Chinese languages. */
const BY_LANGUAGE: ReadonlyMap<string, Language> = new Map([
  ['en', 'en'],
  ['vi', 'vi'],
  ['id', 'id'],
  ['th', 'th'],
  ['ja', 'ja'],
  ['ko', 'ko'],
  ['ms', 'ms'],
]);

/**
 * The supported language `input` folds onto, or null when it folds onto none (the caller
 * decides: MCP rejects the argument, Accept-Language skips the entry).
 */
export function foldLanguage(input: string): Language | null {
  const tag = input.trim().replaceAll('_', '-');
  if (tag === '' || tag.length > MAX_TAG_LENGTH) return null;

  const exact = EXACT.get(tag.toLowerCase());
  if (exact !== undefined) return exact;

  let locale: Intl.Locale;
  try {
    locale = new Intl.Locale(tag);
  } catch {
    return null; // not a well-formed BCP 47 tag
  }
  // `und` (which ICU reports as no language at all) would maximize to en-Latn-US or, with a
  // region, to that region's language; an undetermined language is no preference at all.
  const language: string | undefined = locale.language;
  if (!language || language === 'und') return null;

  const likely = locale.maximize();
  if (likely.language === 'zh') {
    // The script decides, not the region: zh-Hant-SG is still Traditional.
    if (likely.script === 'Hant') return 'zh-TW';
    if (likely.script === 'Hans') return 'zh-CN';
    return null;
  }
  return BY_LANGUAGE.get(likely.language) ?? null;
}
