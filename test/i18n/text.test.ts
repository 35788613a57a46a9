import { describe, expect, it } from 'vitest';
import { APP_LOCALE_TAGS, LANGUAGES, toAppLocale, type Language } from '../../src/i18n/languages.ts';
import { pickText, type LocaleText } from '../../src/i18n/text.ts';

describe('app locale tags', () => {
  it.each([
    ['en', 'en'],
    ['zh-TW', 'zh_TW'],
    ['zh-CN', 'zh_CN'],
    ['vi', 'vi'],
    ['id', 'in'],
    ['th', 'th'],
    ['ja', 'ja'],
    ['ko', 'ko'],
    ['ms', 'ms'],
  ] as const)('%s ↔ %s', (lang, tag) => {
    expect(toAppLocale(lang)).toBe(tag);
  });
  it('covers all nine languages, en first', () => {
    expect(LANGUAGES).toHaveLength(9);
    expect(LANGUAGES[0]).toBe('en');
    expect(LANGUAGES.map((lang) => toAppLocale(lang))).toEqual([...APP_LOCALE_TAGS]);
  });
});

describe('pickText', () => {
  const full: LocaleText = {
    en: 'Rain',
    zh_TW: '雨',
    zh_CN: '雨(简)',
    vi: 'Mưa',
    in: 'Hujan',
    th: 'ฝน',
    ja: '雨(ja)',
    ko: '비',
    ms: 'Hujan(ms)',
  };
  const cases: Array<[string, LocaleText, Language, string]> = [
    ['requested', full, 'ko', '비'],
    ['Indonesian via the app tag `in`', full, 'id', 'Hujan'],
    ['falls back to English', { en: 'Rain', zh_TW: '雨' }, 'ja', 'Rain'],
    ['only zh_TW', { zh_TW: '雨' }, 'en', '雨'],
    ['only zh_TW, asked zh-CN', { zh_TW: '雨' }, 'zh-CN', '雨'],
    ['empty requested counts as missing', { ja: '', en: 'Rain' }, 'ja', 'Rain'],
    ['blank English counts as missing', { en: '  ', ko: '비' }, 'en', '비'],
    ['deterministic order: zh_TW before ko', { ko: '비', zh_TW: '雨' }, 'th', '雨'],
    ['deterministic order: zh_CN before ja', { ja: '雨(ja)', zh_CN: '雨(简)' }, 'vi', '雨(简)'],
    ['unknown tags are ignored', { fr: 'Pluie' }, 'en', ''],
    ['empty map', {}, 'en', ''],
    ['all empty', { en: '', zh_TW: '' }, 'zh-TW', ''],
  ];
  it.each(cases)('%s', (_name, map, lang, expected) => {
    expect(pickText(map, lang)).toBe(expected);
  });
});
