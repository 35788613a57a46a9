/**
 * Compact JSON Schemas for `tools/list`, where every byte is context an agent pays before its
 * first call. The zod-derived schemas are written for the OpenAPI document: a description on
 * every field, examples, the full date-time and uuid patterns, safe-integer bounds. An agent
 * needs the field names, their types and which ids are which, so:
 *
 * - input schemas keep their descriptions (they say where each id comes from) but lose what a
 *   `format` already says and bounds no caller can reach;
 * - output schemas keep names, types, formats, enums and nullability, lose prose and
 *   validation detail, and state each shape repeated within a tool once, under `$defs`.
 *
 * Every compacted schema still accepts everything the original accepts, so `structuredContent`
 * always validates against the declared output schema (test/surfaces/mcp/compact-schema.test.ts).
 */

type Json = Record<string, unknown>;

/**
 * Keywords that only restate a `format`, bound values no caller sends, or show one sample id
 * that fits no particular parameter.
 */
function isRedundant(key: string, value: unknown, node: Json): boolean {
  if (key === 'pattern' && typeof node['format'] === 'string') return true;
  if (key === 'examples') return true;
  if ((key === 'maximum' && value === Number.MAX_SAFE_INTEGER) || (key === 'minimum' && value === Number.MIN_SAFE_INTEGER)) return true;
  return key === '$schema';
}

/**
 * Prose and validation detail that an output schema does not need to be read correctly. The
 * wire conventions (UUID ids, RFC 3339 times, decimals as 4-place strings) are stated once in
 * the server's instructions rather than as a format or pattern on every field.
 */
const OUTPUT_ONLY_DROPPED = new Set([
  'description',
  'title',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  // Every field of a contract resource is always present (null where its type allows), so the
  // lists of required names restate the properties: docs/mcp.md says it once.
  'required',
]);

/** Keywords whose value is a map from names to subschemas (never keywords themselves). */
const SCHEMA_MAPS = new Set(['properties', '$defs', 'definitions', 'patternProperties']);

function mapSchema(node: unknown, drop: (key: string, value: unknown, node: Json) => boolean): unknown {
  if (Array.isArray(node)) return node.map((n) => mapSchema(n, drop));
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) {
    if (drop(key, value, node as Json)) continue;
    if (SCHEMA_MAPS.has(key) && value !== null && typeof value === 'object') {
      out[key] = Object.fromEntries(Object.entries(value as Json).map(([name, sub]) => [name, mapSchema(sub, drop)]));
    } else {
      out[key] = mapSchema(value, drop);
    }
  }
  return out;
}

export function compactInputSchema<T extends Json>(schema: T): T {
  return mapSchema(schema, isRedundant) as T;
}

export function compactOutputSchema<T extends Json>(schema: T): T {
  const root = withoutDeprecated(schema);
  const stripped = mapSchema(root, (key, value, node) => {
    if (isRedundant(key, value, node) || OUTPUT_ONLY_DROPPED.has(key)) return true;
    // An open object accepts more than a closed one: the contract stays the REST document's job.
    if (key === 'additionalProperties' && value === false) return true;
    // `properties` already says it is an object (the root keeps its type: MCP requires it).
    return key === 'type' && value === 'object' && node['properties'] !== undefined && node !== root;
  }) as Json;
  return shareRepeats(withoutImpliedTypes(simplifyUnions(mergeObjectUnions(stripped))) as Json) as T;
}

/**
 * An `enum` of strings already says its values are strings: `type: 'string'` beside it is left
 * out of output schemas (input schemas keep it: function-calling dialects want a type there).
 */
function withoutImpliedTypes(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutImpliedTypes);
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    out[k] =
      SCHEMA_MAPS.has(k) && v !== null && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v as Json).map(([n, sub]) => [n, withoutImpliedTypes(sub)]))
        : withoutImpliedTypes(v);
  }
  const values = out['enum'];
  if (out['type'] === 'string' && Array.isArray(values) && values.every((v) => typeof v === 'string')) delete out['type'];
  return out;
}

/**
 * Deprecated aliases (the sapphire fields) still travel in every result, but an agent should
 * never start reading them: they are left out of the schemas it is shown.
 */
function withoutDeprecated(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutDeprecated);
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    // (`required` lists are dropped from output schemas altogether, so none names a removed field.)
    out[k] =
      k === 'properties' && v !== null && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v as Json)
              .filter(([, sub]) => (sub as Json | null)?.['deprecated'] !== true)
              .map(([n, sub]) => [n, withoutDeprecated(sub)]),
          )
        : withoutDeprecated(v);
  }
  return out;
}

/**
 * Unions said in fewer bytes, accepting the same values: a union that includes a bare `{type: T}`
 * of its branches' type is just that. A nullable field keeps `anyOf: [{type: T}, {type: 'null'}]`
 * rather than the shorter `type: [T, 'null']`, which clients that map tool schemas onto a
 * single-type dialect (Gemini's function declarations among them) refuse.
 */
function simplifyUnions(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(simplifyUnions);
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    out[k] =
      SCHEMA_MAPS.has(k) && v !== null && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v as Json).map(([n, sub]) => [n, simplifyUnions(sub)]))
        : simplifyUnions(v);
  }
  const branches = out['anyOf'];
  if (!Array.isArray(branches) || Object.keys(out).length !== 1) return out;
  const plain = (s: Json) => Object.keys(s).length === 1 && typeof s['type'] === 'string';
  // A bare `{type: T}` among branches of type T accepts all of them: keep just it.
  const bare = (branches as Json[]).find(plain);
  if (bare !== undefined && (branches as Json[]).every((s) => s['type'] === bare['type'])) return bare;
  return out;
}

/**
 * A union of object shapes (a prediction or a poll card) becomes one object with the fields of
 * every branch: the `type` field still says which it is, and an agent reads one list of fields
 * instead of two near-copies. The merged shape accepts every value either branch accepts.
 */
function mergeObjectUnions(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(mergeObjectUnions);
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    out[k] =
      SCHEMA_MAPS.has(k) && v !== null && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v as Json).map(([n, sub]) => [n, mergeObjectUnions(sub)]))
        : mergeObjectUnions(v);
  }
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const branches = out[keyword];
    if (!Array.isArray(branches) || branches.length < 2 || !branches.every(isObjectShape)) continue;
    delete out[keyword];
    const merged = (branches as Json[]).reduce((a, b) => mergeSchemas(a, b));
    Object.assign(out, merged);
  }
  return out;
}

function isObjectShape(node: unknown): node is Json {
  return node !== null && typeof node === 'object' && (node as Json)['properties'] !== undefined && (node as Json)['$ref'] === undefined;
}

function mergeSchemas(a: Json, b: Json): Json {
  if (JSON.stringify(a) === JSON.stringify(b)) return a;
  if (isObjectShape(a) && isObjectShape(b)) {
    const pa = a['properties'] as Json;
    const pb = b['properties'] as Json;
    const properties: Json = { ...pa };
    for (const [name, schema] of Object.entries(pb)) {
      properties[name] = name in pa ? mergeSchemas(pa[name] as Json, schema as Json) : schema;
    }
    return { properties };
  }
  if (a['type'] === 'array' && b['type'] === 'array' && a['items'] !== undefined && b['items'] !== undefined) {
    return { type: 'array', items: mergeSchemas(a['items'] as Json, b['items'] as Json) };
  }
  const constants = [a, b].map((s) =>
    s['type'] === 'string' ? (s['enum'] ?? (s['const'] === undefined ? undefined : [s['const']])) : undefined,
  );
  if (constants.every(Array.isArray)) {
    return { type: 'string', enum: [...new Set((constants as unknown[][]).flat())] };
  }
  const alternatives = [a, b].flatMap((s) => (Array.isArray(s['anyOf']) && Object.keys(s).length === 1 ? (s['anyOf'] as Json[]) : [s]));
  const distinct = [...new Map(alternatives.map((s) => [JSON.stringify(s), s])).values()];
  return distinct.length === 1 ? (distinct[0] as Json) : { anyOf: distinct };
}

/** Below this, a `$ref` saves too little to be worth an indirection. */
const MIN_SHARED_LENGTH = 40;

/**
 * Every subschema that occurs twice or more (an embedded user, a decimal) moves to `$defs` once
 * and is referenced where it stood. Names say what the shape is: a decimal by its places, an
 * object by the field it first appeared under.
 */
function shareRepeats(root: Json): Json {
  const seen = new Map<string, { count: number; name: string }>();
  const walk = (node: unknown, name: string, isRoot: boolean): void => {
    if (Array.isArray(node)) {
      for (const n of node) walk(n, name, false);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const schema = node as Json;
    if (!isRoot && (schema['properties'] !== undefined || schema['pattern'] !== undefined)) {
      const key = JSON.stringify(schema);
      const entry = seen.get(key);
      if (entry === undefined) seen.set(key, { count: 1, name: defName(schema, name) });
      else entry.count += 1;
    }
    for (const [k, v] of Object.entries(schema)) {
      if (SCHEMA_MAPS.has(k) && v !== null && typeof v === 'object') for (const [n, sub] of Object.entries(v as Json)) walk(sub, n, false);
      else walk(v, name, false);
    }
  };
  walk(root, 'shape', true);

  const defs: Json = {};
  const taken = new Map<string, string>();
  const replace = (node: unknown, isRoot: boolean): unknown => {
    if (Array.isArray(node)) return node.map((n) => replace(n, false));
    if (node === null || typeof node !== 'object') return node;
    const key = JSON.stringify(node);
    const entry = seen.get(key);
    const copy = (): Json => {
      const out: Json = {};
      for (const [k, v] of Object.entries(node as Json)) {
        out[k] =
          SCHEMA_MAPS.has(k) && v !== null && typeof v === 'object'
            ? Object.fromEntries(Object.entries(v as Json).map(([n, sub]) => [n, replace(sub, false)]))
            : replace(v, false);
      }
      return out;
    };
    if (isRoot || entry === undefined || entry.count < 2 || key.length < MIN_SHARED_LENGTH) return copy();
    let name = taken.get(key);
    if (name === undefined) {
      name = uniqueName(entry.name, defs);
      taken.set(key, name);
      defs[name] = copy();
    }
    return { $ref: `#/$defs/${name}` };
  };
  const out = replace(root, true) as Json;
  if (Object.keys(defs).length > 0) out['$defs'] = defs;
  return out;
}

function defName(schema: Json, fieldName: string): string {
  const places = typeof schema['pattern'] === 'string' ? /\\d\{(\d+)\}\$$/.exec(schema['pattern'])?.[1] : undefined;
  return places !== undefined ? `dec${places}` : fieldName;
}

function uniqueName(base: string, defs: Json): string {
  if (!(base in defs)) return base;
  for (let i = 2; ; i++) if (!(`${base}${i}` in defs)) return `${base}${i}`;
}
