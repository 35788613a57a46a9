/**
 * Request bodies are JSON only (docs/contract/errors.md#request-errors): Fastify's plain-text
 * parser is removed, so any other Content-Type is refused before a route runs, and so is a JSON
 * body declared in any charset but UTF-8 (RFC 8259 §8.1: JSON exchanged between systems is UTF-8).
 *
 * The JSON parser is Fastify's own (secure-json-parse, prototype poisoning refused), wrapped so
 * that a request to an unknown route is answered 404 whatever its body: Fastify already lets
 * an unknown route through with an unsupported Content-Type, but would still parse a JSON body
 * and answer a malformed one with 400, telling the caller the route exists.
 *
 * A parsed body is then judged as a document, never by searching its text (a key can be written
 * with escapes, `"amount_\u0063oins"`):
 * - a member name given twice in one object is refused, naming it (JSON.parse would keep the
 *   last value silently, so a reviewer and the gateway could read different stakes);
 * - money fields are read with the contract's reviver (src/contract/writes.ts,
 *   `exactAmountCoins`), which sees each number's source text: a stake written as a fraction
 *   stays a fraction.
 * Both surfaces share this parser (/mcp bodies too); src/http/error-handler.ts answers its
 * refusals in each surface's terms.
 */
import type { FastifyInstance } from 'fastify';
import { exactAmountCoins, MONEY_FIELDS } from '../contract/writes.ts';
import { ApiError } from '../errors/api-error.ts';

/** A body that gives one member name twice in the same object. `details.field` is its dotted path. */
export class DuplicateMemberError extends ApiError {
  readonly field: string;
  /** The document as JSON.parse read it (the last value of each name), for an answer that quotes its id. */
  readonly document: unknown;
  constructor(field: string, document: unknown) {
    super('INVALID_ARGUMENT', { message: `${field}: given more than once in the body.`, details: { field } });
    this.field = field;
    this.document = document;
  }
}

export interface BodyScan {
  /** The dotted path of the first member name given twice in one object, or null. */
  duplicate: string | null;
  /** Whether any member, at any depth, is a money field (names compared once unescaped). */
  money: boolean;
}

interface Frame {
  /** Member names seen so far; null for an array. */
  names: Set<string> | null;
  /** The frame's own dotted path ('' at the top). */
  path: string;
  /** Next array index, for paths through arrays. */
  index: number;
}

const join = (path: string, name: string) => (path === '' ? name : `${path}.${name}`);

/**
 * Walks the text of a document JSON.parse already accepted (so the grammar needs no checking):
 * member names are unescaped before they are compared, which is what JSON.parse does.
 */
export function scanJson(text: string): BodyScan {
  const stack: Frame[] = [];
  let money = false;
  // The member name whose value comes next: a frame it opens takes it as its path.
  let pendingName = '';
  // After `{` or `,` inside an object the next string is a member name.
  let expectName = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      let end = i + 1;
      for (;;) {
        const d = text.charCodeAt(end);
        if (d === 92 /* \ */) end += 2;
        else if (d === 34) break;
        else end += 1;
      }
      const frame = stack.at(-1);
      if (expectName && frame !== undefined && frame.names !== null) {
        const raw = text.slice(i + 1, end);
        const name = raw.includes('\\') ? (JSON.parse(text.slice(i, end + 1)) as string) : raw;
        if (frame.names.has(name)) return { duplicate: join(frame.path, name), money };
        frame.names.add(name);
        if (MONEY_FIELDS.has(name)) money = true;
        pendingName = name;
        expectName = false;
      }
      i = end;
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      const parent = stack.at(-1);
      let path = '';
      if (parent !== undefined) path = parent.names === null ? join(parent.path, String(parent.index)) : join(parent.path, pendingName);
      stack.push({ names: c === 123 ? new Set() : null, path, index: 0 });
      expectName = c === 123;
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      stack.pop();
    } else if (c === 44 /* , */) {
      const frame = stack.at(-1);
      if (frame !== undefined) {
        if (frame.names === null) frame.index += 1;
        else expectName = true;
      }
    }
  }
  return { duplicate: null, money };
}

export function acceptJsonBodiesOnly(app: FastifyInstance): void {
  app.removeContentTypeParser('text/plain');
  // The instance's own poisoning settings (Fastify's default: an error on either kind).
  const { onProtoPoisoning = 'error', onConstructorPoisoning = 'error' } = app.initialConfig;
  const parseJson = app.getDefaultJsonParser(onProtoPoisoning, onConstructorPoisoning);
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (request.is404) {
      done(null, undefined);
      return;
    }
    const charset = charsetOf(request.headers['content-type']);
    if (charset !== null && charset !== 'utf-8' && charset !== 'utf8') {
      done(
        new ApiError('INVALID_ARGUMENT', {
          message: 'Request bodies must be JSON in UTF-8 (Content-Type: application/json; charset=utf-8).',
          details: { field: 'content-type' },
        }),
      );
      return;
    }
    const text = body as string;
    parseJson(request, text, (err, parsed) => {
      if (err !== null || parsed === null || typeof parsed !== 'object') {
        done(err, parsed);
        return;
      }
      const scan = scanJson(text);
      if (scan.duplicate !== null) done(new DuplicateMemberError(scan.duplicate, parsed));
      // Poisoning was refused above: this second reading only sees the money fields' text.
      else if (scan.money) done(null, JSON.parse(text, exactAmountCoins as (key: string, value: unknown) => unknown));
      else done(null, parsed);
    });
  });
}

/** The charset parameter of a Content-Type, lower-cased and unquoted; null when absent. */
export function charsetOf(contentType: string | undefined): string | null {
  if (contentType === undefined) return null;
  const m = /;\s*charset\s*=\s*("?)([^";\s]*)\1/i.exec(contentType);
  return m === null ? null : (m[2] ?? '').toLowerCase();
}
