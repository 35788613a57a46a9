import { describe, expect, it } from 'vitest';
import { foldLanguage } from '../../src/i18n/fold.ts';
import { LANGUAGES, type Language } from '../../src/i18n/languages.ts';

describe('foldLanguage', () => {
  const cases: Array<[string, Language | null]> = [
    // every supported code, as is and in other spellings
    ...LANGUAGES.map((l): [string, Language] => [l, l]),
    ['EN', 'en'],
    ['zh_TW', 'zh-TW'],
    ['zh_cn', 'zh-CN'],
    ['ZH-tw', 'zh-TW'],
    ['  ja  ', 'ja'],
    // CLDR likely subtags
    ['zh', 'zh-CN'],
    ['zh-Hans', 'zh-CN'],
    ['zh-Hans-CN', 'zh-CN'],
    ['zh-SG', 'zh-CN'],
    ['zh-Hant', 'zh-TW'],
    ['zh_Hant', 'zh-TW'],
    ['zh-HK', 'zh-TW'],
    ['zh-MO', 'zh-TW'],
    ['zh-Hant-HK', 'zh-TW'],
    ['en-US', 'en'],
    ['en-GB', 'en'],
    ['en_us', 'en'],
    ['en-Latn-US', 'en'],
    ['en-US-u-ca-gregory', 'en'],
    ['ja-JP', 'ja'],
    ['ko-KR', 'ko'],
    ['vi-VN', 'vi'],
    ['th-TH', 'th'],
    ['ms-MY', 'ms'],
    ['id-ID', 'id'],
    // the app's legacy Indonesian tag
    ['in', 'id'],
    ['in-ID', 'id'],
    ['IN', 'id'],
    // nothing supported
    ['fr', null],
    ['pt-BR', null],
    ['yue', null],
    ['zh-Latn', null],
    ['und', null],
    ['und-TW', null],
    ['', null],
    ['   ', null],
    ['*', null],
    ['en;q=1', null],
    ['x-klingon', null],
    ['e', null],
    ['english', null],
    ['a'.repeat(100), null],
  ];
  it.each(cases)('%j → %j', (input, expected) => {
    expect(foldLanguage(input)).toBe(expected);
  });
});
