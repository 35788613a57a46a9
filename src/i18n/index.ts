export {
  LANGUAGES,
  DEFAULT_LANGUAGE,
  APP_LOCALE_TAGS,
  isLanguage,
  toAppLocale,
  fromAppLocale,
  type Language,
  type AppLocaleTag,
} from './languages.ts';
export { foldLanguage } from './fold.ts';
export { negotiateAcceptLanguage, parseAcceptLanguage, type AcceptLanguageEntry } from './accept-language.ts';
export { pickText, type LocaleText } from './text.ts';
