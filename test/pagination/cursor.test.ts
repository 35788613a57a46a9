import { describe, expect, it } from 'vitest';
import type { ApiError } from '../../src/errors/api-error.ts';
import { loadConfig } from '../../src/config.ts';
import { CursorCodec, cursorCodecFrom } from '../../src/pagination/cursor.ts';
import { fromOffsetPage, nextKeysetCursor } from '../../src/pagination/page.ts';

const codecs = new CursorCodec('a-secret-of-sixteen-chars');
const codec = codecs.forList('list_topics');

function invalid(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    return err as ApiError;
  }
  throw new Error('expected a failure');
}

describe('CursorCodec', () => {
  it('round-trips offsets and keyset ids without exposing them', () => {
    const c = codec.encode({ o: 40 });
    expect(c).not.toContain('40');
    expect(Buffer.from(c, 'base64url').toString('latin1')).not.toContain('"o"');
    expect(codec.offsetOf(c)).toBe(40);
    expect(codec.beforeOf(codec.encode({ b: '12345' }))).toBe('12345');
    expect(codec.offsetOf(undefined)).toBe(0);
    expect(codec.beforeOf(undefined)).toBeUndefined();
  });

  it.each([
    ['garbage', 'hello'],
    ['empty', ''],
    ['non-base64url', 'a+b/c='],
    ['too long', 'a'.repeat(600)],
  ])('refuses %s with INVALID_ARGUMENT on cursor', (_n, c) => {
    const err = invalid(() => codec.decode(c));
    expect(err.code).toBe('INVALID_ARGUMENT');
    expect(err.details).toEqual({ field: 'cursor' });
  });

  it('refuses a tampered cursor, one sealed with another secret, and one of the other kind', () => {
    const good = codec.encode({ o: 20 });
    const bytes = Buffer.from(good, 'base64url');
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 1;
    expect(invalid(() => codec.decode(bytes.toString('base64url'))).code).toBe('INVALID_ARGUMENT');
    expect(invalid(() => new CursorCodec('another-secret-value!').forList('list_topics').decode(good)).code).toBe('INVALID_ARGUMENT');
    expect(invalid(() => codec.beforeOf(good)).details).toEqual({ field: 'cursor' });
  });

  it('refuses a text that only decodes to a cursor: a lone character appended, or unused bits changed', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const seen = { appended: 0, twin: 0 };
    for (let o = 0; o < 2000; o += 7) {
      const c = codec.encode({ o });
      const bytes = Buffer.from(c, 'base64url');
      // A cursor whose text is a multiple of 4 long: one more character decodes to nothing.
      // Otherwise its last character carries bits past the last byte, which decoding drops.
      const other = c.length % 4 === 0 ? `${c}A` : c.slice(0, -1) + alphabet[alphabet.indexOf(c.at(-1) as string) ^ 1];
      expect(Buffer.from(other, 'base64url').equals(bytes)).toBe(true);
      expect(invalid(() => codec.offsetOf(other)).code).toBe('INVALID_ARGUMENT');
      expect(codec.offsetOf(c)).toBe(o);
      seen[c.length % 4 === 0 ? 'appended' : 'twin'] += 1;
    }
    expect(seen.appended).toBeGreaterThan(0);
    expect(seen.twin).toBeGreaterThan(0);
  });

  it("refuses another list's cursor, offset or keyset, and opens its own", () => {
    const positions = codecs.forList('list_my_positions').encode({ o: 20 });
    const comments = codecs.forList('list_topic_opinions').encode({ b: 'c1' });
    expect(invalid(() => codec.offsetOf(positions)).details).toEqual({ field: 'cursor' });
    expect(invalid(() => codecs.forList('list_topic_opinions').beforeOf(codec.encode({ b: 'c1' }))).code).toBe('INVALID_ARGUMENT');
    expect(codecs.forList('list_my_positions').offsetOf(positions)).toBe(20);
    expect(codecs.forList('list_topic_opinions').beforeOf(comments)).toBe('c1');
    // The same position of two lists seals to two different cursors.
    expect(positions).not.toBe(codec.encode({ o: 20 }));
    expect(codecs.forList('list_topics')).toBe(codec);
  });
});

describe('pages', () => {
  it('offset pages: next cursor while items remain, none on the last page', () => {
    const first = fromOffsetPage(codec, { items: [1, 2], total: 5 }, 0, (n) => n * 10);
    expect(first.data).toEqual([10, 20]);
    expect(first.has_more).toBe(true);
    expect(codec.offsetOf(first.next_cursor ?? undefined)).toBe(2);
    const last = fromOffsetPage(codec, { items: [5], total: 5 }, 4, (n) => n);
    expect(last).toEqual({ data: [5], next_cursor: null, has_more: false });
    expect(fromOffsetPage(codec, { items: [], total: 9 }, 20, (n) => n).has_more).toBe(false);
  });

  it('keyset pages continue from the last item the backend sent', () => {
    const cursor = nextKeysetCursor(codec, { items: [{ id: 'a' }, { id: 'b' }], hasMore: true }, (i) => i.id);
    expect(codec.beforeOf(cursor ?? undefined)).toBe('b');
    expect(nextKeysetCursor(codec, { items: [{ id: 'a' }], hasMore: false }, (i) => i.id)).toBeNull();
    expect(nextKeysetCursor(codec, { items: [], hasMore: true }, (i: { id: string }) => i.id)).toBeNull();
  });

  it('offset pages count the items the backend sent, even those filtered out', () => {
    const page = fromOffsetPage(codec, { items: [1], total: 10, seen: 3 }, 0, (n) => n);
    expect(codec.offsetOf(page.next_cursor ?? undefined)).toBe(3);
  });
});

describe('cursor determinism', () => {
  it('seals one position to one cursor, and different positions to different cursors', () => {
    expect(codec.encode({ o: 20 })).toBe(codec.encode({ o: 20 }));
    expect(codec.encode({ o: 20 })).not.toBe(codec.encode({ o: 40 }));
  });
});

describe('rotating the cursor secret (CURSOR_KEYS)', () => {
  const OLD = 'the-old-cursor-secret';
  const NEW = 'the-new-cursor-secret';
  const never = () => {
    throw new Error('no random secret expected');
  };
  const listOf = (c: CursorCodec) => c.forList('list_topics');

  it('keeps every open cursor working through the three steps, and only then refuses the old', () => {
    const before = listOf(cursorCodecFrom({ CURSOR_SECRET: OLD }, never));
    const open = before.encode({ o: 20 });
    // 1. Every replica accepts the new secret; the old still seals.
    const added = listOf(cursorCodecFrom(loadConfig({ CURSOR_KEYS: `old:${OLD},new:${NEW}`, CURSOR_SIGNING_KID: 'old' }), never));
    expect(added.encode({ o: 20 })).toBe(open);
    // 2. The new secret seals; cursors of both open on replicas of steps 1 and 2 alike.
    const switched = listOf(cursorCodecFrom(loadConfig({ CURSOR_KEYS: `old:${OLD},new:${NEW}`, CURSOR_SIGNING_KID: 'new' }), never));
    const fresh = switched.encode({ o: 40 });
    expect(switched.encode({ o: 20 })).not.toBe(open);
    expect([switched.offsetOf(open), added.offsetOf(fresh), switched.offsetOf(fresh)]).toEqual([20, 40, 40]);
    expect(invalid(() => before.offsetOf(fresh)).code).toBe('INVALID_ARGUMENT');
    // 3. The old pair goes: its cursors are refused like any foreign one, the new ones still open.
    const done = listOf(cursorCodecFrom(loadConfig({ CURSOR_KEYS: `new:${NEW}` }), never));
    expect(done.offsetOf(fresh)).toBe(40);
    expect(invalid(() => done.offsetOf(open)).details).toEqual({ field: 'cursor' });
  });

  it('reads a CURSOR_SECRET value moved into CURSOR_KEYS as the same key, and draws a random one only when neither is set', () => {
    const cursor = listOf(cursorCodecFrom({ CURSOR_SECRET: OLD }, never)).encode({ b: '77' });
    expect(listOf(cursorCodecFrom(loadConfig({ CURSOR_KEYS: `k:${OLD}` }), never)).beforeOf(cursor)).toBe('77');
    let drawn = 0;
    cursorCodecFrom({}, () => {
      drawn += 1;
      return 'a-random-secret-for-one-process';
    });
    expect(drawn).toBe(1);
  });
});
