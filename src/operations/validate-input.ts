/**
 * Input validation shared by both surfaces: the operation's zod schema decides, and the first
 * problem is reported as `400 INVALID_ARGUMENT` naming the parameter (`details.field`). A
 * malformed path id is `404 NOT_FOUND` instead: ids that cannot exist are simply not found. Over
 * MCP a path id is an argument like any other, so a missing one, or one that is not a string,
 * is `400 INVALID_ARGUMENT` there (a malformed string is still not found).
 *
 * Messages are written for a person: they name the field and say what it accepts ("limit must be
 * an integer from 1 to 100."), read from the same JSON Schema the OpenAPI document and the MCP
 * tools publish, so the message and the documentation cannot disagree.
 */
import { z } from 'zod';
import { ApiError } from '../errors/api-error.ts';
import { pathParamsOf, takesLanguage, type Operation } from './operation.ts';

type JsonSchema = Record<string, unknown>;

export function validateInput<I extends z.ZodType>(op: Operation<I>, raw: unknown, surface: 'rest' | 'mcp'): z.infer<I> {
  const result = op.input.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue === undefined || issue.path.length === 0 ? (unknownKeyOf(issue) ?? 'body') : issue.path.map(String).join('.');
  if (pathParamsOf(op).includes(field) && !(surface === 'mcp' && issue?.code === 'invalid_type')) throw new ApiError('NOT_FOUND');
  // An unknown parameter's name is the caller's input: named, but never echoed at length.
  const shown = echoed(field);
  throw new ApiError('INVALID_ARGUMENT', { message: messageFor(op, surface, issue, shown, raw), details: { field: shown } });
}

/**
 * A REST query parameter or body field named like one of the path's parameters: the path
 * gives that value, so the name is not a parameter of the query or body, and is refused as
 * unknown rather than silently overridden.
 */
export function pathParameterElsewhere(op: Operation, field: string): ApiError {
  const shown = echoed(field);
  return new ApiError('INVALID_ARGUMENT', { message: unknownMessage(shown, knownNames(op, 'rest')), details: { field: shown } });
}

export function echoed(field: string): string {
  return field.length > MAX_ECHOED_FIELD ? `${field.slice(0, MAX_ECHOED_FIELD)}…` : field;
}

/**
 * The names a caller may give: over REST the query or body parameters (path parameters are in
 * the path), over MCP every argument, with `language` on localised tools (docs/mcp.md).
 */
function knownNames(op: Operation, surface: 'rest' | 'mcp'): string[] {
  const names = Object.keys(propertiesOf(op.input));
  if (surface === 'mcp') return takesLanguage(op) ? [...names, 'language'] : names;
  return names.filter((n) => !pathParamsOf(op).includes(n));
}

function unknownMessage(field: string, known: readonly string[]): string {
  return known.length === 0
    ? `${field} is not a known parameter; this operation takes none.`
    : `${field} is not a known parameter; the known ones are: ${known.join(', ')}.`;
}

/** Longest parameter name an error repeats (every real one is far shorter). */
const MAX_ECHOED_FIELD = 40;

function unknownKeyOf(issue: z.core.$ZodIssue | undefined): string | undefined {
  return issue?.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
}

function messageFor(op: Operation, surface: 'rest' | 'mcp', issue: z.core.$ZodIssue | undefined, field: string, raw: unknown): string {
  const properties = propertiesOf(op.input);
  if (issue?.code === 'unrecognized_keys') return unknownMessage(field, knownNames(op, surface));
  const top = field.split('.')[0] ?? field;
  if (field === top && isRecord(raw) && raw[top] === undefined && issue?.code === 'invalid_type') return `${field} is required.`;
  // A refinement's own words already say what is wrong ("must be a whole number of coins").
  if (issue?.code === 'custom') return sentence(`${field} ${issue.message}`);
  const property = field === top ? properties[top] : undefined;
  const expected = property === undefined ? undefined : describe(property);
  if (expected !== undefined) return sentence(`${field} must be ${expected}`);
  return sentence(`${field}: ${issue?.message ?? 'invalid value'}`);
}

const cache = new WeakMap<z.ZodType, Record<string, JsonSchema>>();

/** The input's properties as JSON Schema (what OpenAPI and MCP publish), computed once. */
function propertiesOf(schema: z.ZodType): Record<string, JsonSchema> {
  let props = cache.get(schema);
  if (props === undefined) {
    const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, JsonSchema> };
    props = json.properties ?? {};
    cache.set(schema, props);
  }
  return props;
}

/** What a value must be, in words ("an integer from 1 to 100"); undefined when unsure. */
function describe(s: JsonSchema): string | undefined {
  if (Array.isArray(s['enum'])) return `one of: ${s['enum'].map(String).join(', ')}`;
  if (s['const'] !== undefined) return JSON.stringify(s['const']);
  const branches = (s['anyOf'] ?? s['oneOf']) as JsonSchema[] | undefined;
  if (Array.isArray(branches)) {
    const parts = branches.map(describe);
    return parts.every((p): p is string => p !== undefined) ? parts.join(' or ') : undefined;
  }
  const type = s['type'];
  if (Array.isArray(type)) {
    const parts = type.map((t) => describe({ ...s, type: t }));
    return parts.every((p): p is string => p !== undefined) ? parts.join(' or ') : undefined;
  }
  switch (type) {
    case 'integer':
    case 'number':
      return numberWords(type === 'integer' ? 'an integer' : 'a number', s);
    case 'string':
      return stringWords(s);
    case 'boolean':
      return 'true or false';
    case 'null':
      return 'null';
    case 'object':
      return 'an object';
    case 'array':
      return 'a list';
    default:
      return undefined;
  }
}

/** Bounds at JavaScript's safe-integer limits are no bounds a reader cares about. */
function bound(s: JsonSchema, key: 'minimum' | 'maximum'): number | undefined {
  const v = s[key];
  return typeof v === 'number' && Math.abs(v) < Number.MAX_SAFE_INTEGER ? v : undefined;
}

function numberWords(noun: string, s: JsonSchema): string {
  const min = bound(s, 'minimum');
  const max = bound(s, 'maximum');
  if (min !== undefined && max !== undefined) return `${noun} from ${min} to ${max}`;
  if (min !== undefined) return `${noun} of ${min} or more`;
  if (max !== undefined) return `${noun} of ${max} or less`;
  return noun;
}

const FORMATS: Record<string, string> = {
  uuid: 'a UUID',
  'date-time': 'an RFC 3339 timestamp',
  uri: 'an absolute URL',
  email: 'an email address',
};

function stringWords(s: JsonSchema): string {
  const format = typeof s['format'] === 'string' ? FORMATS[s['format']] : undefined;
  if (format !== undefined) return format;
  const min = typeof s['minLength'] === 'number' ? s['minLength'] : undefined;
  const max = typeof s['maxLength'] === 'number' ? s['maxLength'] : undefined;
  if (min !== undefined && max !== undefined)
    return min === max ? `a string of exactly ${min} characters` : `a string of ${min} to ${max} characters`;
  if (min !== undefined) return min === 1 ? 'a non-empty string' : `a string of at least ${min} characters`;
  if (max !== undefined) return `a string of at most ${max} characters`;
  return 'a string';
}

function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
