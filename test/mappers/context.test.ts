import { describe, expect, it } from 'vitest';
import { urls } from '../../mappers/context.ts';
import { externalUrl, externalUrls } from '../../mappers/links.ts';
import { ctx, uuid } from './helpers.ts';

describe('urls', () => {
  const c = ctx('en', 'https://app.example.com/');
  const t = uuid('f001');
  const o = uuid('e001');
  it.each([
    [urls.prediction(c, t), `https://app.example.com/predictions/${t}`],
    [urls.poll(c, t), `https://app.example.com/polls/${t}`],
    [urls.topic(c, 'poll', t), `https://app.example.com/polls/${t}`],
    [urls.user(c, 'alice'), 'https://app.example.com/u/alice'],
    [urls.user(c, 'a b/c'), 'https://app.example.com/u/a%20b%2Fc'],
    [urls.opinion(c, t, o), `https://app.example.com/predictions/${t}/opinions/${o}`],
    [urls.pollComment(c, t, '9001'), `https://app.example.com/polls/${t}/comments/9001`],
    [urls.comment(c, 'prediction', t, o), `https://app.example.com/predictions/${t}/opinions/${o}`],
    [urls.category(c, t), `https://app.example.com/categories/${t}`],
    [urls.zone(c, 'taipei'), 'https://app.example.com/zones/taipei'],
    [urls.contest(c, uuid('c001')), `https://app.example.com/contests/${uuid('c001')}`],
    [urls.position(c, t), `https://app.example.com/predictions/${t}`],
    [urls.wallet(c, 'coin'), 'https://app.example.com/me/wallet/coins'],
    [urls.wallet(c, 'ruby'), 'https://app.example.com/me/wallet/rubies'],
  ])('%s', (actual, expected) => {
    expect(actual).toBe(expected);
  });
  it('keeps a base path', () => {
    expect(urls.user(ctx('en', 'https://example.com/app'), 'bob')).toBe('https://example.com/app/u/bob');
  });
});

describe('externalUrl', () => {
  const c = ctx('en', 'https://app.example.com');
  it.each([
    ['https://cdn.example.com/a.png', 'https://cdn.example.com/a.png'],
    ['http://cdn.example.com/a b.png', 'http://cdn.example.com/a%20b.png'],
    ['/static/a.png', 'https://app.example.com/static/a.png'],
    ['  https://cdn.example.com/a.png  ', 'https://cdn.example.com/a.png'],
    ['javascript:alert(1)', null],
    ['data:image/png;base64,AAAA', null],
    ['', null],
    [null, null],
  ])('%j → %j', (raw, expected) => {
    expect(externalUrl(raw, c)).toBe(expected);
  });
  it('drops unusable links from a list', () => {
    expect(externalUrls(['/a.png', 'mailto:x@example.com', 'https://x.example.com/b.png'], c)).toEqual([
      'https://app.example.com/a.png',
      'https://x.example.com/b.png',
    ]);
  });
});

describe('externalUrl refuses what is neither absolute nor site-relative', () => {
  it.each(['not a url at all ::', 'images/a.png', 'www.example.com/a.png'])('%j', (raw) => {
    expect(externalUrl(raw, ctx())).toBeNull();
  });
  it('keeps protocol-relative links on the base scheme', () => {
    expect(externalUrl('//cdn.example.com/a.png', ctx())).toBe('https://cdn.example.com/a.png');
  });
});

describe('urls never throw on odd handles', () => {
  it('a lone surrogate is replaced, not thrown on', () => {
    expect(urls.user(ctx(), 'a\ud800b')).toBe('https://app.example.com/u/a%EF%BF%BDb');
  });
});
