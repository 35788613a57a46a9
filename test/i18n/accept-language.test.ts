import { describe, expect, it } from 'vitest';
import { negotiateAcceptLanguage, parseAcceptLanguage } from '../../src/i18n/accept-language.ts';
import type { Language } from '../../src/i18n/languages.ts';

describe('negotiateAcceptLanguage', () => {
  const cases: Array<[string | undefined, Language, string]> = [
    [undefined, 'en', 'no header'],
    ['', 'en', 'empty header'],
    ['zh-TW', 'zh-TW', 'exact'],
    ['zh-tw', 'zh-TW', 'case folded'],
    ['zh_TW', 'zh-TW', 'underscore folded'],
    ['zh', 'zh-CN', 'likely subtags: zh is Simplified'],
    ['zh-HK,en;q=0.5', 'zh-TW', 'Hong Kong reads Traditional'],
    ['fr-FR,fr;q=0.9,ja;q=0.8,en;q=0.7', 'ja', 'best supported, skipping unsupported'],
    ['en;q=0.5,vi;q=0.9', 'vi', 'highest q wins regardless of order'],
    ['ko;q=0.8,th;q=0.8', 'ko', 'ties keep header order'],
    ['ms, id', 'ms', 'no q means 1'],
    ['in', 'id', 'legacy Indonesian tag'],
    ['de', 'en', 'nothing supported → en'],
    ['vi;q=0', 'en', 'q=0 excludes'],
    ['ja;q=0, ja-JP', 'en', 'q=0 excludes the language whatever spelling'],
    ['zh;q=0, zh-TW', 'zh-TW', 'excluding zh (zh-CN) leaves zh-TW'],
    ['*', 'en', 'wildcard alone is the default'],
    ['fr, *;q=0.5', 'en', 'wildcard after unsupported'],
    ['en;q=0, *', 'zh-TW', 'wildcard covers only languages not named'],
    ['en;q=0.1, *;q=0.5', 'zh-TW', 'wildcard outranks a low-weighted named language'],
    ['th;q=0.9, *;q=0.1', 'th', 'named language outranks wildcard'],
    ['*;q=0', 'en', 'everything refused still answers en'],
    ['ja;q=0.5, ko;q=abc', 'ja', 'malformed q drops that entry only'],
    ['ko;q=1.5, ja;q=0.2', 'ja', 'q above 1 is malformed'],
    ['ko;q=0.1234, ja;q=0.2', 'ja', 'more than 3 decimals is malformed'],
    ['ko;q=1.000, ja;q=0.999', 'ko', '1.000 is valid'],
    ['ko ; q = 0.3 , ja ; q = 0.2', 'ko', 'whitespace tolerated'],
    ['ko;level=1;q=0.4, ja;q=0.3', 'ko', 'unknown parameters ignored'],
    [';;;,,,', 'en', 'garbage'],
    ['<script>', 'en', 'not a tag'],
    ['en-US,en;q=0.9,zh-CN;q=0.8', 'en', 'typical browser header'],
    ['zh-CN,zh;q=0.9,en;q=0.8', 'zh-CN', 'typical Chinese browser header'],
    ['und, ja;q=0.1', 'ja', 'und is no preference'],
    [`${'fr,'.repeat(100)}ja`, 'en', 'entries past the cap are ignored'],
    [`${', ,'.repeat(40)}ja`, 'ja', 'empty list elements are no entries, so they do not count'],
  ];
  it.each(cases)('%j → %s (%s)', (header, expected) => {
    expect(negotiateAcceptLanguage(header)).toBe(expected);
  });
});

describe('parseAcceptLanguage', () => {
  it('keeps well-formed entries in header order with their weights', () => {
    expect(parseAcceptLanguage('da, en-GB;q=0.8, en;q=0.7, *;q=0.1, bad tag;q=0.5')).toEqual([
      { tag: 'da', q: 1 },
      { tag: 'en-GB', q: 0.8 },
      { tag: 'en', q: 0.7 },
      { tag: '*', q: 0.1 },
    ]);
  });
});
