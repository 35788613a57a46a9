/**
 * fast-check arbitraries read from the OpenAPI document's JSON Schemas: values a schema accepts
 * (with the sandbox's real ids mixed in, so that generated calls also reach the success paths),
 * and mutations of them that it should refuse or that stress the parser.
 */
import fc from 'fast-check';
import { CATEGORIES, MARKETS, OPINIONS, POLLS, USERS, outcomeId } from '../../sandbox/ids.ts';

export type Json = Record<string, any>;

/** Ids the sandbox knows, so a UUID is sometimes one that exists. */
const KNOWN_TOPICS = [...Object.values(MARKETS), ...Object.values(POLLS)];
const KNOWN_IDS = [
  ...KNOWN_TOPICS,
  ...Object.values(OPINIONS),
  ...Object.values(CATEGORIES),
  ...Object.values(MARKETS).flatMap((m) => [outcomeId(m, 1), outcomeId(m, 2)]),
];
export const KNOWN_HANDLES = Object.keys(USERS);

/** Strings that stress the parsers and the echo rules. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u202eb',
    '\u2066x\u2069',
    '\r\n',
    '%00',
    '%zz',
    '../../etc/passwd',
    '<script>alert(1)</script>',
    "' OR 1=1 --",
    '{"$gt":""}',
    '__proto__',
    'constructor',
    '\ud800',
    '🙂'.repeat(300),
    'é'.repeat(600),
    'NaN',
    'Infinity',
    '-0',
    '1e308',
    '9007199254740993',
    'null',
    'true',
  ),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer({ min: 201, max: 6000 }).map((n) => `L${'x'.repeat(n)}`),
);

const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, -1, 1, 100, 101, 1e9, 1e9 + 1, 2 ** 53, 2 ** 53 + 2, 1e308, -1e308, 5e-324, 0.5, 1.00001, 12.34567, -0.0),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

export function resolve(doc: Json, schema: Json | undefined): Json {
  let s = schema ?? {};
  for (let i = 0; i < 10 && typeof s['$ref'] === 'string'; i++) {
    const path = (s['$ref'] as string).replace(/^#\//, '').split('/');
    s = path.reduce((node: Json, key) => node?.[key], doc) ?? {};
  }
  return s;
}

/** Values the schema accepts (approximately: formats by example, refinements ignored). */
export function valid(doc: Json, schema: Json | undefined, name = '', depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(doc, schema);
  if (s['const'] !== undefined) return fc.constant(s['const']);
  if (Array.isArray(s['enum'])) return fc.constantFrom(...(s['enum'] as unknown[]));
  const branches = (s['anyOf'] ?? s['oneOf']) as Json[] | undefined;
  if (Array.isArray(branches) && branches.length > 0) return fc.oneof(...branches.map((b) => valid(doc, b, name, depth + 1)));
  const type = Array.isArray(s['type']) ? s['type'][0] : s['type'];
  switch (type) {
    case 'string':
      return validString(s, name);
    case 'integer': {
      const min = typeof s['minimum'] === 'number' ? s['minimum'] : -1000;
      const max = typeof s['maximum'] === 'number' ? s['maximum'] : min + 1000;
      return fc.oneof(fc.integer({ min, max: Math.min(max, min + 100) }), fc.constantFrom(min, max));
    }
    case 'number':
      return fc.double({
        min: typeof s['minimum'] === 'number' ? s['minimum'] : -1e6,
        max: typeof s['maximum'] === 'number' ? s['maximum'] : 1e6,
        noNaN: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return depth > 3 ? fc.constant([]) : fc.array(valid(doc, s['items'], name, depth + 1), { maxLength: 3 });
    default: {
      const props = (s['properties'] ?? {}) as Record<string, Json>;
      if (depth > 3 || Object.keys(props).length === 0) return fc.constant({});
      const required = new Set((s['required'] ?? []) as string[]);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, p] of Object.entries(props)) record[key] = valid(doc, p, key, depth + 1);
      return fc.record(record, { requiredKeys: Object.keys(props).filter((k) => required.has(k)) });
    }
  }
}

function validString(s: Json, name: string): fc.Arbitrary<string> {
  if (s['format'] === 'uuid' || name.endsWith('_id')) return fc.oneof(fc.constantFrom(...KNOWN_IDS), fc.uuid());
  if (name === 'handle') return fc.oneof(fc.constantFrom(...KNOWN_HANDLES), fc.stringMatching(/^[a-z][a-z0-9_]{2,15}$/));
  if (s['format'] === 'date-time') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
  const min = typeof s['minLength'] === 'number' ? s['minLength'] : 0;
  const max = typeof s['maxLength'] === 'number' ? Math.min(s['maxLength'], 80) : 40;
  if (name === 'content')
    return fc.oneof(
      fc.constantFrom('Holding firm on this one.', 'Rain is likely.\nSee the radar.'),
      fc.string({ minLength: 1, maxLength: 80 }),
    );
  return fc.string({ minLength: min, maxLength: Math.max(min, max) });
}

/** Any JSON value, including the awkward ones. */
export const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  hostileNumber,
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.integer(), { maxKeys: 3 }),
);

/** A mutation of an object of values: wrong types, boundaries, hostile strings, missing and extra fields. */
export function mutateObject(base: fc.Arbitrary<Record<string, unknown>>, keys: readonly string[]): fc.Arbitrary<Record<string, unknown>> {
  const key = keys.length > 0 ? fc.constantFrom(...keys) : fc.constant('x');
  return fc
    .tuple(base, fc.nat({ max: 4 }), key, anyJson, fc.oneof(hostileString, fc.string({ maxLength: 20 })))
    .map(([obj, kind, k, value, extra]) => {
      const out = { ...obj };
      switch (kind) {
        case 0:
          out[k] = value; // wrong type or hostile value
          break;
        case 1:
          delete out[k]; // missing
          break;
        case 2:
          out[extra === '' ? 'extra' : extra] = value; // unknown field, possibly with a hostile name
          break;
        case 3:
          out[k] = value;
          out[`${k}_`] = value;
          break;
        default:
          for (const name of Object.keys(out)) out[name] = value;
      }
      return out;
    });
}
