import { describe, expect, it } from 'vitest';
import { isWellFormedKey, parseBearer } from '../../src/auth/key-format.ts';

describe('key format (docs/contract/auth.md#key-format)', () => {
  it.each([
    ['opk_test_alice_read_0000000000', true],
    ['opk_live_ABCDEFGHIJKLMNOP', true],
    ['opk_live_ABCDEFGHIJKLMNO', false], // 15 characters after the prefix
    ['opk_prod_ABCDEFGHIJKLMNOP', false],
    ['opk_test_with-dash_000000000', false],
    ['OPK_TEST_ABCDEFGHIJKLMNOP', false],
    ['xopk_test_ABCDEFGHIJKLMNOP', false], // the prefix starts the key
    ['my_opk_live_ABCDEFGHIJKLMNOP', false],
    [`opk_test_${'a'.repeat(201)}`, false],
    ['', false],
  ])('%s → %s', (key, ok) => {
    expect(isWellFormedKey(key)).toBe(ok);
  });

  it.each([
    [undefined, 'missing'],
    ['', 'missing'],
    ['   ', 'missing'],
    ['Bearer', 'malformed'],
    ['Bearer ', 'malformed'],
    ['Basic b3BrX3Rlc3Q=', 'malformed'],
    ['Bearer not-a-key', 'malformed'],
    ['Bearer opk_test_alice_read_0000000000 extra', 'malformed'],
    ['bearer opk_test_alice_read_0000000000', 'key'],
    ['Bearer  opk_test_alice_read_0000000000', 'key'],
    ['Bearer opk_test_alice_read_0000000000  ', 'key'], // trailing blanks are not part of the key
    ['Bearer opk_test_alice_read_0000000000\t', 'key'],
    ['XBearer opk_test_alice_read_0000000000', 'malformed'], // the scheme starts the header
    ['NotBearer opk_test_alice_read_0000000000', 'malformed'],
  ])('Authorization %j → %s', (header, kind) => {
    expect(parseBearer(header).kind).toBe(kind);
  });

  it('hands on the key alone, without the blanks around it', () => {
    expect(parseBearer('Bearer   opk_test_alice_read_0000000000 \t')).toEqual({ kind: 'key', key: 'opk_test_alice_read_0000000000' });
  });
});
