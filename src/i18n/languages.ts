/**
 * The languages the open contract supports (docs/contract/localisation.md#languages), and their app locale tags.
 *
 * The contract speaks BCP 47 (`zh-TW`); the backend keys its locale maps with its own tags
 * (`zh_TW`, and the legacy `in` for Indonesian). This module is the one place that pairs them.
 */

/** Supported contract languages, default first. The order is also the fallback order of pickText. */
export const LANGUAGES = ['en', 'zh-TW', 'zh-CN', 'vi', 'id', 'th', 'ja', 'ko', 'ms'] as const;
export type Language = (typeof LANGUAGES)[number];

export const DEFAULT_LANGUAGE: Language = 'en';

/** The backend's locale tags, in the same order as LANGUAGES. */
export const APP_LOCALE_TAGS = ['en', 'zh_TW', 'zh_CN', 'vi', 'in', 'th', 'ja', 'ko', 'ms'] as const;
export type AppLocaleTag = (typeof APP_LOCALE_TAGS)[number];

const TO_APP: Readonly<Record<Language, AppLocaleTag>> = {
  en: 'en',
  'zh-TW': 'zh_TW',
  'zh-CN': 'zh_CN',
  vi: 'vi',
  id: 'in',
  th: 'th',
  ja: 'ja',
  ko: 'ko',
  ms: 'ms',
};

/** Contract language → the backend's locale tag (`id` → `in`, `zh-TW` → `zh_TW`). */
export function toAppLocale(lang: Language): AppLocaleTag {
  return TO_APP[lang];
}
