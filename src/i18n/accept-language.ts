/**
 * Accept-Language negotiation for REST (docs/contract/localisation.md#accept-language).
 *
 * Entries are weighed by their q-value (RFC 9110 section 12.5.4); each tag is folded with
 * foldLanguage; q=0 excludes the language it folds onto; `*` stands for any supported language
 * the header does not name. No usable match means `en`. Never throws: a header is user input.
 */
import { foldLanguage } from './fold.ts';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from './languages.ts';

/** Entries beyond this are ignored, so that a hostile header costs bounded work. */
const MAX_ENTRIES = 32;

const TAG_RE = /^(?:\*|[A-Za-z]{1,8}(?:[-_][A-Za-z0-9]{1,8})*)$/;
/** RFC 9110 qvalue: 0, 0.x, 0.xx, 0.xxx, 1, 1.0, 1.00, 1.000. */
const QVALUE_RE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

export interface AcceptLanguageEntry {
  /** The tag as sent (`*` for the wildcard). */
  tag: string;
  q: number;
}

/**
 * The well-formed entries of an Accept-Language header, in header order. An entry with a
 * malformed tag or weight is dropped rather than guessed at.
 */
export function parseAcceptLanguage(header: string | undefined): AcceptLanguageEntry[] {
  if (header === undefined) return [];
  const entries: AcceptLanguageEntry[] = [];
  let read = 0;
  for (const part of header.split(',')) {
    // Empty list elements are no entries (RFC 9110 section 5.6.1), so they do not count.
    if (part.trim() === '') continue;
    if (++read > MAX_ENTRIES) break;
    const [rawTag = '', ...params] = part.split(';').map((s) => s.trim());
    if (!TAG_RE.test(rawTag)) continue;
    let q = 1;
    let valid = true;
    for (const param of params) {
      const m = /^q\s*=\s*(.*)$/i.exec(param);
      if (m === null) continue; // unknown parameters carry no weight
      const value = m[1] ?? '';
      if (!QVALUE_RE.test(value)) {
        valid = false;
        break;
      }
      q = Number(value);
    }
    if (valid) entries.push({ tag: rawTag, q });
  }
  return entries;
}

/** The language to answer in for this Accept-Language header; `en` when nothing fits. */
export function negotiateAcceptLanguage(header: string | undefined): Language {
  const entries = parseAcceptLanguage(header);
  // Most callers send no header; answer them without building the sets below.
  if (entries.length === 0) return DEFAULT_LANGUAGE;

  const excluded = new Set<Language>();
  const named = new Set<Language>();
  for (const { tag, q } of entries) {
    if (tag === '*') continue;
    const lang = foldLanguage(tag);
    if (lang === null) continue;
    named.add(lang);
    if (q === 0) excluded.add(lang);
  }

  // Highest weight first; Array#sort is stable, so header order breaks ties.
  const ranked = entries.filter((e) => e.q > 0).sort((a, b) => b.q - a.q);
  for (const { tag } of ranked) {
    if (tag === '*') {
      // The wildcard covers only languages the header does not name explicitly.
      const any = LANGUAGES.find((lang) => !named.has(lang));
      if (any !== undefined) return any;
      continue;
    }
    const lang = foldLanguage(tag);
    if (lang !== null && !excluded.has(lang)) return lang;
  }
  return DEFAULT_LANGUAGE;
}
