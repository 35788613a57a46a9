import { describe, expect, it } from 'vitest';
import { APP_LOCALE_TAGS } from '../../src/i18n/languages.ts';
import { LocaleText } from '../../src/upstream/internal-api.ts';

describe('LocaleText (a backend locale map)', () => {
  const nine = Object.fromEntries(APP_LOCALE_TAGS.map((tag) => [tag, `text ${tag}`]));

  it('keeps every app locale tag', () => {
    expect(LocaleText.parse(nine)).toEqual(nine);
  });

  it('accepts any subset, the empty map included', () => {
    expect(LocaleText.parse({})).toEqual({});
    expect(LocaleText.parse({ ja: 'はい' })).toEqual({ ja: 'はい' });
  });

  it('drops tags it does not know, whatever they hold', () => {
    expect(LocaleText.parse({ en: 'Yes', fr: 'Oui', de: 42, 'zh-TW': null })).toEqual({ en: 'Yes' });
  });

  it('refuses a known tag that holds anything but a string, and a value that is not a map', () => {
    for (const bad of [{ en: 1 }, { zh_TW: null }, { ms: ['a'] }, 'Yes', null, []]) {
      expect(LocaleText.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});
