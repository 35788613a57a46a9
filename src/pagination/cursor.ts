/**
 * Opaque pagination cursors. The backend pages by offset or by keyset (`before=<id>`); the
 * contract promises opaque cursors, so the position is sealed with AES-256-GCM: callers can
 * neither read the upstream's offsets nor forge a position. A cursor that fails to open is
 * `400 INVALID_ARGUMENT` on `cursor`.
 *
 * Every position names the list it belongs to (the operation that issued it), and each list
 * opens only its own: a cursor of `/me/positions` given to `/topics` is refused rather than
 * read as an offset into another list (docs/contract/lists.md#cursors).
 *
 * Replicas must share the secret for a cursor from one to work on another. Several may be
 * accepted at once (CURSOR_KEYS): the signing one seals, every one opens, so the secret rotates
 * without breaking an open cursor (docs/operations.md#rotating-secrets). A cursor names no key:
 * opening tries each accepted secret, and AES-GCM's tag tells which one sealed it.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac } from 'node:crypto';
import { invalidArgument } from '../errors/api-error.ts';
import type { KeyRing } from '../secrets/key-ring.ts';

/** Where a list resumes: an offset, or the last item seen (keyset). */
export type CursorPosition = { o: number } | { b: string };
/** A position sealed with the name of its list. */
type Sealed = CursorPosition & { l: string };

/** 2: positions carry their list; a version-1 cursor (no list) is refused like any foreign one. */
const VERSION = 2;

/**
 * The codec of a configuration: CURSOR_KEYS (the signing kid seals, all open), else
 * CURSOR_SECRET, else `fallback` (a single process's random secret). A pair's secret derives
 * the same key as CURSOR_SECRET does, so moving that value into CURSOR_KEYS keeps its cursors.
 */
export function cursorCodecFrom(
  config: { CURSOR_SECRET?: string | undefined; CURSOR_KEYS?: KeyRing | undefined },
  fallback: () => string,
): CursorCodec {
  const ring = config.CURSOR_KEYS;
  const signing = ring?.signingKid == null ? undefined : ring.secrets.get(ring.signingKid);
  if (signing === undefined) return new CursorCodec(config.CURSOR_SECRET ?? fallback());
  return new CursorCodec(
    signing.toString('utf8'),
    [...(ring?.secrets.values() ?? [])].map((s) => s.toString('utf8')),
  );
}

interface CursorKey {
  key: Buffer;
  ivKey: Buffer;
}

function cursorKey(secret: string): CursorKey {
  return {
    key: createHash('sha256').update(`openpm-cursor:${secret}`).digest(),
    ivKey: createHash('sha256').update(`openpm-cursor-iv:${secret}`).digest(),
  };
}

export class CursorCodec {
  readonly #sealing: CursorKey;
  /** The sealing key first, then every other accepted one. */
  readonly #opening: readonly CursorKey[];
  readonly #lists = new Map<string, ListCursors>();

  /** `secret` seals new cursors; cursors sealed with it or with any of `alsoAccepted` open. */
  constructor(secret: string, alsoAccepted: readonly string[] = []) {
    this.#sealing = cursorKey(secret);
    this.#opening = [this.#sealing, ...alsoAccepted.filter((s) => s !== secret).map(cursorKey)];
  }

  /** The cursors of one list (an operation's name): they seal and open only that list's positions. */
  forList(list: string): ListCursors {
    let cursors = this.#lists.get(list);
    if (cursors === undefined) {
      cursors = new ListCursors(this, list);
      this.#lists.set(list, cursors);
    }
    return cursors;
  }

  seal(pos: Sealed): string {
    const plain = JSON.stringify(pos);
    // Synthetic IV (a MAC of the position): one position always seals to the same cursor, so
    // REST and MCP answer byte-identical lists, and a nonce is never reused for two positions.
    const iv = createHmac('sha256', this.#sealing.ivKey).update(plain).digest().subarray(0, 12);
    const cipher = createCipheriv('aes-256-gcm', this.#sealing.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  /** Open a caller's cursor; anything that is not one of ours is an invalid argument. */
  open(cursor: string): Sealed {
    const raw = /^[A-Za-z0-9_-]{1,512}$/.test(cursor) ? Buffer.from(cursor, 'base64url') : Buffer.alloc(0);
    // Base64url decoding ignores a lone trailing character and the unused bits of the last one,
    // so other texts decode to these bytes too; only the text this API wrote is its cursor.
    if (raw.length < 1 + 12 + 16 + 2 || raw[0] !== VERSION || raw.toString('base64url') !== cursor) throw badCursor();
    for (const { key } of this.#opening) {
      const pos = openWith(key, raw);
      if (pos !== null) return pos;
    }
    throw badCursor();
  }
}

/** One list's cursors: what operations use (OperationContext.cursors, bound by the pipeline). */
export class ListCursors {
  readonly #codec: CursorCodec;
  readonly #list: string;

  constructor(codec: CursorCodec, list: string) {
    this.#codec = codec;
    this.#list = list;
  }

  encode(pos: CursorPosition): string {
    return this.#codec.seal({ l: this.#list, ...pos });
  }

  /** The position of a cursor of this list; another list's cursor is an invalid argument. */
  decode(cursor: string): CursorPosition {
    const { l, ...pos } = this.#codec.open(cursor);
    if (l !== this.#list) throw badCursor();
    return pos as CursorPosition;
  }

  offsetOf(cursor: string | undefined): number {
    if (cursor === undefined) return 0;
    const pos = this.decode(cursor);
    if (!('o' in pos)) throw badCursor();
    return pos.o;
  }

  beforeOf(cursor: string | undefined): string | undefined {
    if (cursor === undefined) return undefined;
    const pos = this.decode(cursor);
    if (!('b' in pos)) throw badCursor();
    return pos.b;
  }
}

/** The position sealed in `raw` with `key`, or null when the tag does not verify or the content is not a position. */
function openWith(key: Buffer, raw: Buffer): Sealed | null {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(1, 13));
    decipher.setAuthTag(raw.subarray(13, 29));
    const json = Buffer.concat([decipher.update(raw.subarray(29)), decipher.final()]).toString('utf8');
    const pos = JSON.parse(json) as unknown;
    return isPosition(pos) ? pos : null;
  } catch {
    return null; // tampered, or sealed with another key
  }
}

function isPosition(v: unknown): v is Sealed {
  if (typeof v !== 'object' || v === null) return false;
  const { l, o, b } = v as { l?: unknown; o?: unknown; b?: unknown };
  if (typeof l !== 'string') return false;
  return (Number.isSafeInteger(o) && (o as number) >= 0) || (typeof b === 'string' && b.length > 0 && b.length <= 64);
}

function badCursor() {
  return invalidArgument('cursor', 'cursor: not a cursor from this API (use next_cursor as returned).');
}
