/**
 * Key names for Redis Cluster (src/store/redis.ts): which part of a key the cluster hashes, and
 * the helpers that make keys of one operation share a slot, so multi-key scripts never fail
 * with CROSSSLOT while the documented key names and the key prefix stay as they are.
 */
import { describe, expect, it } from 'vitest';
import { hashTagOf, keyInSlotOf, taggedKey } from '../../src/store/redis.ts';

describe('hashTagOf', () => {
  it.each([
    ['openpm:verdict:abc', 'openpm:verdict:abc'], // no tag: the whole key
    ['openpm:{k1}:minute', 'k1'],
    ['a{b}c{d}', 'b'], // the first tag only
    ['a{}b{c}', 'a{}b{c}'], // an empty first tag: the whole key, not the later one
    ['a{bc', 'a{bc'], // never closed
    ['a}b{c}', 'c'], // a `}` before the first `{` does not count
  ])('%s hashes as %s', (key, hashed) => {
    expect(hashTagOf(key)).toBe(hashed);
  });
});

describe('taggedKey', () => {
  it('puts the tag between braces after the prefix, so every key of one tag hashes alike', () => {
    const a = taggedKey('openpm:', 'key-1', ':read_minute');
    const b = taggedKey('openpm:', 'key-1', ':write_day');
    expect(a).toBe('openpm:{key-1}:read_minute');
    expect(hashTagOf(a)).toBe(hashTagOf(b));
    expect(hashTagOf(taggedKey('openpm:', 'key-2'))).not.toBe(hashTagOf(a));
  });

  it('lets a complete tag in the prefix win, so all keys share one slot', () => {
    expect(hashTagOf(taggedKey('{openpm}:', 'key-1', ':x'))).toBe('openpm');
  });
});

describe('keyInSlotOf', () => {
  it('wraps an untagged key so the new key hashes exactly like it, under the same prefix', () => {
    const base = 'openpm:killswitch';
    const key = keyInSlotOf(base, ':seq', 'openpm:');
    expect(key).toBe('openpm:{openpm:killswitch}:seq');
    expect(key.startsWith('openpm:')).toBe(true);
    expect(hashTagOf(key)).toBe(hashTagOf(base));
  });

  it('appends to a key that already has a tag, keeping that tag', () => {
    const base = 'openpm:{shard}:killswitch';
    expect(keyInSlotOf(base, ':seq', 'openpm:')).toBe('openpm:{shard}:killswitch:seq');
    expect(hashTagOf(keyInSlotOf(base, ':seq'))).toBe('shard');
  });
});
