export {
  LANGUAGES,
  APP_LOCALE_TAGS,
  isLanguage,
  toAppLocale,
  fromAppLocale,
  type Language,
} from './languages.ts';
export { foldLanguage } from './fold.ts';
export { negotiateAcceptLanguage, parseAcceptLanguage } from './accept-language.ts';
export { pickText, type LocaleText } from './text.ts';
