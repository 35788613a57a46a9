/**
 * Opaque pagination cursors. The backend pages by offset or by keyset (`before=<id>`); the
 * contract promises opaque cursors, so the position is sealed with AES-256-GCM: callers can
 * neither read the upstream's offsets nor forge a position. A cursor that fails to open is
 * `400 INVALID_ARGUMENT` on `cursor`.
 *
 * Replicas must share CURSOR_SECRET for a cursor from one to work on another.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac } from 'node:crypto';
import { invalidArgument } from '../errors/api-error.ts';

export type CursorPosition = { o: number } | { b: string };

const VERSION = 1;

export class CursorCodec {
  readonly #key: Buffer;
  readonly #ivKey: Buffer;

  constructor(secret: string) {
    this.#key = createHash('sha256').update(`openpm-cursor:${secret}`).digest();
    this.#ivKey = createHash('sha256').update(`openpm-cursor-iv:${secret}`).digest();
  }

  encode(pos: CursorPosition): string {
    const plain = JSON.stringify(pos);
    // Synthetic IV (a MAC of the position): one position always seals to the same cursor, so
    // REST and MCP answer byte-identical lists, and a nonce is never reused for two positions.
    const iv = createHmac('sha256', this.#ivKey).update(plain).digest().subarray(0, 12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  /** Open a caller's cursor; anything that is not one of ours is an invalid argument. */
  decode(cursor: string): CursorPosition {
    const raw = /^[A-Za-z0-9_-]{1,512}$/.test(cursor) ? Buffer.from(cursor, 'base64url') : Buffer.alloc(0);
    if (raw.length < 1 + 12 + 16 + 2 || raw[0] !== VERSION) throw badCursor();
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, raw.subarray(1, 13));
      decipher.setAuthTag(raw.subarray(13, 29));
      const json = Buffer.concat([decipher.update(raw.subarray(29)), decipher.final()]).toString('utf8');
      const pos = JSON.parse(json) as unknown;
      if (isPosition(pos)) return pos;
    } catch {
      // fall through: tampered or foreign
    }
    throw badCursor();
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

function isPosition(v: unknown): v is CursorPosition {
  if (typeof v !== 'object' || v === null) return false;
  const o = (v as { o?: unknown }).o;
  const b = (v as { b?: unknown }).b;
  return (Number.isSafeInteger(o) && (o as number) >= 0) || (typeof b === 'string' && b.length > 0 && b.length <= 64);
}

function badCursor() {
  return invalidArgument('cursor', 'cursor: not a cursor from this API (use next_cursor as returned).');
}
