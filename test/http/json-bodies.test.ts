/** scanJson: member names compared once unescaped, per object, with the path of a duplicate (src/http/json-bodies.ts). */
import { describe, expect, it } from 'vitest';
import { charsetOf, scanJson } from '../../src/http/json-bodies.ts';

describe('scanJson', () => {
  it.each([
    ['{"a":1,"a":2}', 'a'],
    ['{"a":1,"\\u0061":2}', 'a'],
    ['{"x":{"b":1,"c":{"b":2},"b":3}}', 'x.b'],
    ['{"params":{"arguments":{"amount_coins":1,"amount_coins":2}}}', 'params.arguments.amount_coins'],
    ['{"list":[{"k":1},{"k":1,"k":2}]}', 'list.1.k'],
    ['[[1],[{"a":"\\"","a":0}]]', '1.0.a'],
    ['{"a\\"b":1,"a\\u0022b":2}', 'a"b'],
  ])('%s gives a duplicate at %s', (text, path) => {
    JSON.parse(text); // the scanner only ever sees documents JSON.parse accepted
    expect(scanJson(text).duplicate).toBe(path);
  });

  it.each(['{"a":1,"b":{"a":2},"c":[{"a":3},{"a":4}]}', '{"a":"{\\"a\\":1,\\"a\\":2}"}', '{"a,":1,"a":2,"[a":3}', '[]', '"a"', '{}'])(
    '%s has none',
    (text) => {
      JSON.parse(text);
      expect(scanJson(text).duplicate).toBeNull();
    },
  );

  it('finds a money field however its name is written, at any depth, and only a name', () => {
    expect(scanJson('{"amount_coins":1}').money).toBe(true);
    expect(scanJson('{"x":{"amount_\\u0063oins":1}}').money).toBe(true);
    expect(scanJson('{"note":"amount_coins"}').money).toBe(false);
    expect(scanJson('{"AMOUNT_COINS":1}').money).toBe(false);
  });
});

describe('charsetOf', () => {
  it.each([
    [undefined, null],
    ['application/json', null],
    ['application/json; charset=utf-8', 'utf-8'],
    ['application/json;charset="UTF-16LE"', 'utf-16le'],
    ['application/json; foo=bar; Charset = latin1', 'latin1'],
  ])('%s → %s', (header, charset) => {
    expect(charsetOf(header)).toBe(charset);
  });
});
