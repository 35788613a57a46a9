/**
 * The OpenAPI 3.1 document of the REST surface, derived from the operation list and the zod
 * schemas that validate requests and check responses. Served at GET /openapi.json and
 * GET /open/v1/openapi.json (no key needed) and written to docs/openapi.json by
 * `npm run openapi`.
 *
 * - Every contract schema exported from src/contract becomes a named component under its
 *   export name, referenced wherever it is used (generated SDKs get named types); components
 *   nothing refers to are left out.
 * - Examples come from src/surfaces/rest/openapi-examples.json, which scripts/openapi-examples.ts captures
 *   from real sandbox answers; a test validates each against its schema and captures again to
 *   catch drift.
 */
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import * as contract from '../../contract/index.ts';
import { GENERIC_UUID_EXAMPLE } from '../../contract/common.ts';
import { ERROR_STATUS, type ErrorCode } from '../../errors/codes.ts';
import { negotiatesLanguage, pathParamsOf, type Operation, type OperationTag } from '../../operations/operation.ts';
import { LANGUAGES } from '../../i18n/languages.ts';
import { CONTRACT_VERSION } from '../../contract/version.ts';

type Json = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// Examples

export interface Example {
  summary: string;
  value: unknown;
  /** Written from the contract because the gateway does not answer this itself yet. */
  contract?: true;
}

export interface OperationExamples {
  /** Path and query parameters of the main example. */
  parameters: Record<string, string | number>;
  /** Request bodies, named. */
  requestBodies?: Record<string, Example>;
  /** Responses by status, then by name. */
  responses: Record<string, Record<string, Example>>;
}

export interface OpenApiExamples {
  operations: Record<string, OperationExamples>;
  /** Answers any operation can give (401, 429, 503…), by status, then by name. */
  shared: Record<string, Record<string, Example>>;
}

const EXAMPLES_FILE = new URL('./openapi-examples.json', import.meta.url);

/** The captured examples; none before the first capture (the capture itself builds apps). */
export function loadExamples(): OpenApiExamples {
  if (!existsSync(EXAMPLES_FILE)) return { operations: {}, shared: {} };
  return JSON.parse(readFileSync(EXAMPLES_FILE, 'utf8')) as OpenApiExamples;
}

// ---------------------------------------------------------------------------------------------
// Component schemas

const SCHEMA_REF = '#/components/schemas/';
const ref = (id: string) => ({ $ref: `${SCHEMA_REF}${id}` });

/** Contract schemas worth a name: objects, unions and enums (not strings, numbers, wrappers). */
function namedContractSchemas(): Map<z.ZodType, string> {
  const out = new Map<z.ZodType, string>();
  for (const [name, value] of Object.entries(contract)) {
    if (!(value instanceof z.ZodType)) continue;
    if (!['object', 'union', 'enum'].includes(value._zod.def.type)) continue;
    if (!out.has(value)) out.set(value, name);
  }
  return out;
}

function pascal(name: string): string {
  return name.replace(/(^|_)([a-z])/g, (_m, _sep: string, c: string) => c.toUpperCase());
}

/**
 * The schema of an operation's request body: a contract request schema when the operation's
 * input is exactly that schema's fields plus its path parameters, else the input itself.
 */
function bodySchemaOf(op: Operation, named: Map<z.ZodType, string>): { schema: z.ZodType; name: string } {
  if (named.has(op.input)) return { schema: op.input, name: named.get(op.input) as string };
  const shape = shapeOf(op.input);
  if (shape !== undefined) {
    const pathNames = new Set(pathParamsOf(op));
    for (const [schema, name] of named) {
      const candidate = shapeOf(schema);
      if (candidate === undefined || !name.endsWith('Request')) continue;
      const bodyKeys = Object.keys(shape).filter((k) => !pathNames.has(k));
      const same = bodyKeys.length === Object.keys(candidate).length && bodyKeys.every((k) => candidate[k] === shape[k]);
      if (same) return { schema, name };
    }
  }
  return { schema: op.input, name: `${pascal(op.name)}Request` };
}

function shapeOf(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  return schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>) : undefined;
}

function convert(registry: z.core.$ZodRegistry<{ id: string }>, io: 'input' | 'output'): Record<string, Json> {
  const { schemas } = z.toJSONSchema(registry, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
    uri: (id) => `${SCHEMA_REF}${id}`,
  }) as { schemas: Record<string, Json> };
  for (const schema of Object.values(schemas)) tidy(schema);
  return schemas;
}

/** Drops what JSON Schema tooling adds but OpenAPI readers do not need. */
function tidy(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) tidy(item);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const o = node as Json;
  delete o['$schema'];
  delete o['$id'];
  // zod's RFC 3339 regex is a screenful; `format` and the description say the same.
  if (o['format'] === 'date-time') delete o['pattern'];
  // A placeholder id names no sandbox resource: a request built from it fails. Ids that are
  // examples come from the capture (parameters, request bodies) instead.
  const ex = o['examples'];
  if (Array.isArray(ex) && ex.length === 1 && ex[0] === GENERIC_UUID_EXAMPLE) delete o['examples'];
  for (const value of Object.values(o)) tidy(value);
}

/**
 * Each property of a preview's request body carries its value in the first captured example that
 * has it (a real sandbox id, an amount that can be staked), so that a request built property by
 * property executes. The executions' body is shared by three operations and holds only a token,
 * which no static example can make valid.
 */
function bodyPropertyExamples(
  schemas: Record<string, Json>,
  operations: readonly Operation[],
  bodies: Map<Operation, string>,
  examples: OpenApiExamples,
): void {
  for (const op of operations) {
    if (op.kind !== 'preview') continue;
    const props = schemas[bodies.get(op) ?? '']?.['properties'] as Record<string, Json> | undefined;
    if (props === undefined) continue;
    for (const example of Object.values(examples.operations[op.name]?.requestBodies ?? {})) {
      if (example.value === null || typeof example.value !== 'object') continue;
      for (const [name, value] of Object.entries(example.value)) {
        const prop = props[name];
        if (prop !== undefined && prop['examples'] === undefined) prop['examples'] = [value];
      }
    }
  }
}

/** `discriminator` on unions whose branches are named and carry a literal `type`-like key. */
function addDiscriminators(schemas: Record<string, Json>, named: Map<z.ZodType, string>): void {
  for (const [schema, name] of named) {
    const def = schema._zod.def as { type: string; discriminator?: string; options?: z.ZodType[] };
    const json = schemas[name];
    if (json === undefined || def.type !== 'union' || def.discriminator === undefined || def.options === undefined) continue;
    const mapping: Record<string, string> = {};
    for (const option of def.options) {
      const optionName = named.get(option);
      const literal = shapeOf(option)?.[def.discriminator];
      const values = literal instanceof z.ZodLiteral ? [...literal.values] : [];
      if (optionName === undefined || values.length !== 1) return;
      mapping[String(values[0])] = `${SCHEMA_REF}${optionName}`;
    }
    json['discriminator'] = { propertyName: def.discriminator, mapping };
  }
}

/** Every `$ref` target reachable from `roots`, following component schemas. */
function reachable(roots: unknown, schemas: Record<string, Json>): Set<string> {
  const seen = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const n of node) visit(n);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith(SCHEMA_REF)) {
        const id = v.slice(SCHEMA_REF.length);
        if (!seen.has(id)) {
          seen.add(id);
          visit(schemas[id]);
        }
      } else {
        visit(v);
      }
    }
  };
  visit(roots);
  return seen;
}

// ---------------------------------------------------------------------------------------------
// Tags, headers, shared responses

/** Every group an operation can declare (Operation.tag), described, in the reference's order. */
const TAGS: readonly { name: OperationTag; description: string }[] = [
  { name: 'Search', description: 'Find predictions and polls by keyword.' },
  { name: 'Topics', description: 'Predictions and polls: lists, detail, opinions (comments) and probability history.' },
  { name: 'Catalog', description: 'Browsing aids: category channels, zones and contests.' },
  { name: 'Users', description: 'Topics other users created.' },
  {
    name: 'Account',
    description: "The key owner's own data: profile, positions, published and backed opinions, watchlist, ledgers, created topics.",
  },
  {
    name: 'Orders',
    description:
      'Placing a position, in two phases: `order-preview` charges nothing and returns a token; `POST /orders` spends exactly the previewed stake.',
  },
  {
    name: 'Opinions',
    description: 'Publishing an opinion, in two phases: `opinion-preview`, then `POST /opinions` with its token (strictly single-use).',
  },
  { name: 'Backs', description: "Backing another user's opinion, in two phases: `back-preview`, then `POST /backs` with its token." },
];

const TAG_GROUPS: { name: string; tags: OperationTag[] }[] = [
  { name: 'Read', tags: ['Search', 'Topics', 'Catalog', 'Users', 'Account'] },
  { name: 'Write (two phases)', tags: ['Orders', 'Opinions', 'Backs'] },
];

const HEADERS: Record<string, Json> = {
  'X-RateLimit-Limit': {
    description:
      'Requests allowed in the binding minute window (the applicable window with the least remaining). Absent when limits are off.',
    schema: { type: 'integer', minimum: 1 },
    example: 120,
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in that window.',
    schema: { type: 'integer', minimum: 0 },
    example: 117,
  },
  'X-RateLimit-Reset': {
    description: 'Whole seconds until that window frees a slot.',
    schema: { type: 'integer', minimum: 0 },
    example: 42,
  },
  'Retry-After': {
    description: 'Whole seconds to wait before retrying.',
    schema: { type: 'integer', minimum: 0 },
    example: 17,
  },
  'X-Request-Id': {
    description:
      "Id of this request, echoed from the request's `X-Request-Id` when it sent a usable one; quote it when reporting a problem.",
    schema: { type: 'string' },
    example: '1f0c6a4e-3b7d-4d8e-9a51-6c2f0e7b9d13',
  },
  'Server-Timing': {
    description:
      "Where the answer's time went, in milliseconds: `gw` the gateway's own share, `upstream` the backend calls' (summed). Absent when the operator turned it off.",
    schema: { type: 'string' },
    example: 'gw;dur=3.2, upstream;dur=41.7',
  },
  'Content-Language': {
    description: 'Language of the localised text in the answer (negotiated from `Accept-Language`).',
    schema: { type: 'string', enum: [...LANGUAGES] },
    example: 'en',
  },
  'WWW-Authenticate': {
    description: 'Bearer challenge: `Bearer realm="open-api"`, plus `error="invalid_token"` when a key was sent but is not valid.',
    schema: { type: 'string' },
    example: 'Bearer realm="open-api", error="invalid_token"',
  },
};
const header = (name: keyof typeof HEADERS & string) => ({ $ref: `#/components/headers/${name}` });
const RATE_HEADERS = {
  'X-RateLimit-Limit': header('X-RateLimit-Limit'),
  'X-RateLimit-Remaining': header('X-RateLimit-Remaining'),
  'X-RateLimit-Reset': header('X-RateLimit-Reset'),
};

function codesOf(status: number, only?: readonly ErrorCode[]): ErrorCode[] {
  return (Object.keys(ERROR_STATUS) as ErrorCode[]).filter((c) => ERROR_STATUS[c] === status && (only === undefined || only.includes(c)));
}

/** Shared error responses: name, status, description, extra headers. */
const SHARED_RESPONSES: Record<string, { status: number; description: string; headers?: Json }> = {
  BadRequest: {
    status: 400,
    description:
      '`INVALID_ARGUMENT`: a parameter is missing or invalid; `details.field` names it (`path` for a path that is not validly percent-encoded, `request` for bytes that are not well-formed HTTP).',
    // A request counted against the key's limits says so; one refused before counting does not.
    headers: RATE_HEADERS,
  },
  Unauthorized: {
    status: 401,
    description: '`UNAUTHORIZED`: the key is missing, malformed, unknown, revoked or expired.',
    headers: { 'WWW-Authenticate': header('WWW-Authenticate') },
  },
  Forbidden: {
    status: 403,
    description: '`FORBIDDEN_SCOPE`: the key lacks the `write` scope (`details.required_scope`); `USER_PUNISHED`: the account may not act.',
    // A request counted against the key's limits says so; one refused before counting does not.
    headers: RATE_HEADERS,
  },
  NotFound: {
    status: 404,
    description: '`NOT_FOUND`: the resource is missing, or hidden by privacy or moderation; existence does not leak.',
    // A request counted against the key's limits says so; one refused before counting does not.
    headers: RATE_HEADERS,
  },
  RequestTimeout: {
    status: 408,
    description: '`INVALID_ARGUMENT`: the request was not received in full in time; the connection is closed.',
  },
  PayloadTooLarge: { status: 413, description: '`INVALID_ARGUMENT`: the request body is over 16 KiB.', headers: RATE_HEADERS },
  UriTooLong: { status: 414, description: '`INVALID_ARGUMENT`: a path parameter is over 200 characters (`details.field: "path"`).' },
  RateLimited: {
    status: 429,
    description:
      '`RATE_LIMITED`: a window of this key is used up; wait `Retry-After` seconds (`details.retry_after`). A refused request consumes nothing.',
    headers: { 'Retry-After': header('Retry-After'), ...RATE_HEADERS },
  },
  HeadersTooLarge: {
    status: 431,
    description:
      '`INVALID_ARGUMENT`: the request headers are over the server\'s limit (`details.field: "headers"`); the connection is closed.',
  },
  InternalError: {
    status: 500,
    description: '`INTERNAL`: an unexpected failure; `CONFIRM_UNAVAILABLE` on writes when tokens cannot be issued or checked.',
    // A request counted against the key's limits says so; one refused before counting does not.
    headers: RATE_HEADERS,
  },
  ServiceUnavailable: {
    status: 503,
    description: '`SERVICE_DISABLED`: the kill switch is on (every operation, or only writes).',
    headers: { 'Retry-After': header('Retry-After') },
  },
};
const SHARED_BY_STATUS = new Map(Object.entries(SHARED_RESPONSES).map(([name, r]) => [r.status, name]));

/** The error statuses an operation can answer. */
function errorStatuses(op: Operation): number[] {
  const out = [400, 401, 408, 414, 429, 431, 500, 503];
  if (op.scope === 'write') out.push(403, 413);
  if (op.kind === 'execute' || pathParamsOf(op).length > 0) out.push(404);
  if (op.kind === 'execute') out.push(409, 410, 422);
  return out.sort((a, b) => a - b);
}

function describeStatus(op: Operation, status: number): string {
  const base = SHARED_RESPONSES[SHARED_BY_STATUS.get(status) ?? '']?.description;
  if (op.errors === undefined) return base ?? `Error ${status}.`;
  const codes = codesOf(status, op.errors).map((c) => `\`${c}\``);
  // A backend that asks to be retried (docs/contract/errors.md#error-codes).
  if (status === 503) return `${base ?? ''}${codes.length > 0 ? ` Also ${codes.join(', ')} (with \`Retry-After\`): retry later.` : ''}`;
  if (op.kind !== 'execute')
    return codes.length > 0 ? `${codes.join(', ')}; or ${base ?? `error ${status}.`}` : (base ?? `Error ${status}.`);
  switch (status) {
    case 400:
      return `\`INVALID_ARGUMENT\` (the body is not exactly \`{"confirm_token": "…"}\`; \`details.field\`), or ${codes.join(', ')}.`;
    case 404:
      return `${codes.length > 0 ? `${codes.join(', ')}, or ` : ''}\`NOT_FOUND\`: what the token refers to is gone or hidden.`;
    case 409:
      return `The state changed since the preview: ${codes.join(', ')}. \`RETRY_IDEMPOTENCY_KEY\` (with \`Retry-After\`) means the same token is still being executed: retry shortly.`;
    case 410:
      return '`CONFIRM_TOKEN_EXPIRED`: the token is older than 5 minutes. Preview again.';
    case 422:
      return `The action is no longer possible: ${codes.join(', ')}.`;
    default:
      return base ?? `Error ${status}.`;
  }
}

/** Whether an operation's answer with this status is its own rather than the shared one. */
function ownAnswer(op: Operation, status: number): boolean {
  if (op.errors === undefined) return false;
  if (op.kind === 'execute') return [400, 404, 409, 410, 422, 503].includes(status);
  return codesOf(status, op.errors).length > 0;
}

function examplesOf(set: Record<string, Example> | undefined): Json | undefined {
  if (set === undefined) return undefined;
  return Object.fromEntries(Object.entries(set).map(([name, e]) => [name, { summary: e.summary, value: e.value }]));
}

/**
 * Shared answers the example capture cannot provoke cheaply (a 408 needs a connection left
 * unfinished for minutes): what the gateway writes, kept in step by test/http/malformed-requests.test.ts.
 */
const UNCAPTURED_SHARED: Record<string, Record<string, Example>> = {
  '408': {
    request_timeout: {
      summary: 'A request not received in full in time',
      value: { error: { code: 'INVALID_ARGUMENT', message: 'The request was not received in time.', details: { field: 'request' } } },
    },
  },
};

function errorContent(set: Record<string, Example> | undefined): Json {
  const examples = examplesOf(set);
  return { 'application/json': { schema: ref('ErrorEnvelope'), ...(examples === undefined ? {} : { examples }) } };
}

function errorResponse(op: Operation, status: number, examples: OpenApiExamples): Json {
  const own = examples.operations[op.name]?.responses[String(status)];
  const shared = SHARED_BY_STATUS.get(status);
  if (own === undefined && !ownAnswer(op, status) && shared !== undefined) return { $ref: `#/components/responses/${shared}` };
  const headers: Json = {
    'X-Request-Id': header('X-Request-Id'),
    'Server-Timing': header('Server-Timing'),
    ...(SHARED_RESPONSES[shared ?? '']?.headers ?? {}),
  };
  if (status === 409) headers['Retry-After'] = header('Retry-After');
  // An execution's refusals come after it was counted.
  if (status === 409 || status === 410 || status === 422) Object.assign(headers, RATE_HEADERS);
  return {
    description: describeStatus(op, status),
    headers,
    content: errorContent(own ?? examples.shared[String(status)] ?? UNCAPTURED_SHARED[String(status)]),
  };
}

// ---------------------------------------------------------------------------------------------
// The document

/** The OpenAPI 3.1 document of `operations`, with the captured examples. */
export function buildOpenApi(operations: readonly Operation[], serverUrl = '/open/v1', examples: OpenApiExamples = loadExamples()): Json {
  const schemas = componentSchemas(operations, examples);
  const paths: Record<string, Json> = {};
  for (const op of operations) {
    const path = (paths[op.rest.path] ??= {});
    path[op.rest.method.toLowerCase()] = operationObject(op, schemas, examples);
  }
  const sharedResponses = sharedResponsesUsedBy(paths, examples);
  const used = reachable({ paths, sharedResponses }, schemas.all);
  const components = Object.fromEntries(
    Object.entries(schemas.all)
      .filter(([id]) => used.has(id))
      .sort(([a], [b]) => a.localeCompare(b)),
  );

  return {
    openapi: '3.1.0',
    info: {
      title: 'Open Prediction-Market API',
      version: CONTRACT_VERSION,
      summary: 'Markets, polls and opinions of the prediction-market app, for integrations and AI agents.',
      description: infoDescription(operations),
      contact: { name: 'Open API team' },
      // The gateway's code is Apache-2.0 (LICENSE, package.json).
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: serverUrl, description: "This gateway (relative to the page's origin)." }],
    security: [{ apiKey: [] }],
    tags: TAGS.map((t) => ({ ...t })),
    'x-tagGroups': TAG_GROUPS,
    paths,
    components: {
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'opk_live_… or opk_test_…',
          description:
            'A personal API key, sent as `Authorization: Bearer <key>`. Keys are created in the app; scopes are `read` or `read` + `write`.',
        },
      },
      parameters: {
        AcceptLanguage: {
          name: 'Accept-Language',
          in: 'header',
          required: false,
          description: `Language of titles, options and opinions: ${LANGUAGES.map((l) => `\`${l}\``).join(', ')} (q-values honoured; anything else falls back to \`en\`).`,
          schema: { type: 'string' },
          example: 'en',
        },
      },
      headers: HEADERS,
      responses: sharedResponses,
      schemas: components,
    },
  };
}

/** Every component schema, and the name of each operation's request body and answer among them. */
interface ComponentSchemas {
  all: Record<string, Json>;
  bodies: Map<Operation, string>;
  outputs: Map<Operation, string>;
}

/**
 * The contract's named schemas, each request body (as input) and each answer (as output), under
 * the names the document refers to them by.
 */
function componentSchemas(operations: readonly Operation[], examples: OpenApiExamples): ComponentSchemas {
  const named = namedContractSchemas();
  const inputRegistry = z.registry<{ id: string }>();
  const outputRegistry = z.registry<{ id: string }>();
  const bodies = new Map<Operation, string>();
  const outputs = new Map<Operation, string>();

  for (const op of operations) {
    if (op.rest.method !== 'POST') continue;
    const body = bodySchemaOf(op, named);
    bodies.set(op, body.name);
    if (!inputRegistry.has(body.schema)) inputRegistry.add(body.schema, { id: body.name });
  }
  const requestSchemas = new Set(bodies.values());
  for (const [schema, name] of named) {
    if (!requestSchemas.has(name)) outputRegistry.add(schema, { id: name });
  }
  outputRegistry.add(contract.ErrorEnvelope, { id: 'ErrorEnvelope' });
  for (const op of operations) {
    const name = named.get(op.output) ?? `${pascal(op.name)}Response`;
    if (!outputRegistry.has(op.output)) outputRegistry.add(op.output, { id: name });
    outputs.set(op, name);
  }

  const all = { ...convert(outputRegistry, 'output'), ...convert(inputRegistry, 'input') };
  addDiscriminators(all, named);
  bodyPropertyExamples(all, operations, bodies, examples);
  return { all, bodies, outputs };
}

/** One operation's entry under its path: parameters, request body and answers. */
function operationObject(op: Operation, schemas: ComponentSchemas, examples: OpenApiExamples): Json {
  const own = examples.operations[op.name];
  const parameters = parametersOf(op, own);
  const requestBody = requestBodyOf(op, own, schemas);
  return {
    operationId: op.name,
    summary: op.title,
    description: op.description,
    tags: [op.tag],
    ...(op.mcp ? { 'x-mcp-tool': op.name } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody === undefined ? {} : { requestBody }),
    responses: responsesOf(op, own, schemas, examples),
  };
}

/** Path and query parameters (a GET's inputs are all query parameters), and Accept-Language. */
function parametersOf(op: Operation, own: OperationExamples | undefined): Json[] {
  const input = z.toJSONSchema(op.input, { io: 'input', target: 'draft-2020-12', unrepresentable: 'any' }) as Json;
  tidy(input);
  const props = (input['properties'] ?? {}) as Record<string, Json>;
  const required = new Set((input['required'] ?? []) as string[]);
  const pathNames = pathParamsOf(op);

  const parameters: Json[] = [];
  const param = (name: string, where: 'path' | 'query') => {
    const { description, ...schema } = props[name] ?? { type: 'string' };
    const example = own?.parameters[name];
    // The parameter's own example (a real sandbox id) replaces the schema's generic one.
    if (example !== undefined) delete schema['examples'];
    parameters.push({
      name,
      in: where,
      required: where === 'path' || required.has(name),
      description: typeof description === 'string' ? description : `The \`${name}\` parameter.`,
      schema,
      ...(example === undefined ? {} : { example }),
    });
  };
  for (const name of pathNames) param(name, 'path');
  if (op.rest.method === 'GET') for (const name of Object.keys(props)) if (!pathNames.includes(name)) param(name, 'query');
  if (negotiatesLanguage(op)) parameters.push({ $ref: '#/components/parameters/AcceptLanguage' });
  return parameters;
}

function requestBodyOf(op: Operation, own: OperationExamples | undefined, schemas: ComponentSchemas): Json | undefined {
  if (op.rest.method !== 'POST') return undefined;
  const bodyExamples = examplesOf(own?.requestBodies);
  return {
    required: true,
    description:
      op.kind === 'execute' ? 'Exactly the token of the matching preview; any other field is refused.' : 'The action to preview.',
    content: {
      'application/json': {
        schema: ref(schemas.bodies.get(op) as string),
        ...(bodyExamples === undefined ? {} : { examples: bodyExamples }),
      },
    },
  };
}

/** The success answers (an execution's 201, and its replay's 200 when it replays) and every error answer. */
function responsesOf(op: Operation, own: OperationExamples | undefined, schemas: ComponentSchemas, examples: OpenApiExamples): Json {
  const successHeaders: Json = { ...RATE_HEADERS, 'X-Request-Id': header('X-Request-Id'), 'Server-Timing': header('Server-Timing') };
  if (negotiatesLanguage(op)) successHeaders['Content-Language'] = header('Content-Language');
  const success = (status: number, description: string): Json => {
    const set = examplesOf(own?.responses[String(status)]);
    return {
      description,
      headers: successHeaders,
      content: { 'application/json': { schema: ref(schemas.outputs.get(op) as string), ...(set === undefined ? {} : { examples: set }) } },
    };
  };
  const responses: Json = {};
  if (op.kind === 'execute') {
    responses['201'] = success(201, 'Executed (`replayed: false`).');
    // An output whose `replayed` can only be false is never replayed (publish_opinion: a retry is 409).
    if (replays(op)) responses['200'] = success(200, 'A retry with the same token: the stored result, identical but for `replayed: true`.');
  } else {
    responses['200'] = success(200, op.kind === 'preview' ? 'The preview: nothing is charged.' : 'OK.');
  }
  for (const status of errorStatuses(op)) responses[String(status)] = errorResponse(op, status, examples);
  return responses;
}

/** The shared error answers (components.responses) that some operation refers to. */
function sharedResponsesUsedBy(paths: Record<string, Json>, examples: OpenApiExamples): Json {
  const sharedResponses: Json = {};
  const pathsText = JSON.stringify(paths);
  for (const [name, r] of Object.entries(SHARED_RESPONSES)) {
    if (!pathsText.includes(`"#/components/responses/${name}"`)) continue;
    sharedResponses[name] = {
      description: r.description,
      headers: { 'X-Request-Id': header('X-Request-Id'), 'Server-Timing': header('Server-Timing'), ...(r.headers ?? {}) },
      content: errorContent(examples.shared[String(r.status)] ?? UNCAPTURED_SHARED[String(r.status)]),
    };
  }
  return sharedResponses;
}

function replays(op: Operation): boolean {
  const json = z.toJSONSchema(op.output, { io: 'output', unrepresentable: 'any' }) as { properties?: Record<string, Json> };
  const replayed = json.properties?.['replayed'];
  return replayed !== undefined && replayed['const'] !== false;
}

/** The document's introduction; the tool counts are the registry's, whatever operations it holds. */
/** The client package's name as the example imports it (quoted: an example, not an import of this file). */
const CLIENT_PACKAGE = "'@openpm/client'";

function infoDescription(operations: readonly Operation[]): string {
  const tools = operations.filter((op) => op.mcp);
  const readTools = tools.filter((op) => op.scope === 'read').length;
  return `The open API of the prediction-market and polling app: predictions (markets) and polls, their
opinions, the key owner's own data, and three actions (placing an order, publishing an opinion,
backing an opinion). Contract version ${CONTRACT_VERSION}. The same operations are MCP tools for AI agents.

## Authentication

Every request needs a personal API key: \`Authorization: Bearer <key>\`. A missing, unknown,
revoked or expired key is \`401 UNAUTHORIZED\` with a \`WWW-Authenticate: Bearer realm="open-api"\`
challenge. Keys carry the \`read\` scope, or \`read\` and \`write\`; a read-only key calling a write
operation gets \`403 FORBIDDEN_SCOPE\`.

The sandbox (\`npm start\` without \`UPSTREAM_URL\`) prints demo keys, public by design:
\`opk_test_alice_read_0000000000\` (read), \`opk_test_alice_write_000000000\` (read and write,
10,000 coins), \`opk_test_bob_write_00000000000\` (read and write, 5 coins).

## Conventions

- Field names are \`snake_case\`; enumerations are lowercase, error and reason codes UPPER_SNAKE.
- Decimals are strings with 4 places (\`"12.5000"\`), \`avg_price\` with 6; never JSON numbers.
- Timestamps are RFC 3339 in UTC. Every resource has a \`url\` a person can visit.
- Lists are \`{data, next_cursor, has_more}\`: pass \`next_cursor\` back as \`cursor\` for the next
  page; \`limit\` is 1 to 100 (default 20).
- Titles, options and opinions follow \`Accept-Language\` (answered with \`Content-Language\`).

## Writes in two phases

A preview (\`order-preview\`, \`opinion-preview\`, \`back-preview\`) charges nothing and answers
\`200\` with a \`summary\`; when the action is possible it also returns a \`confirm_token\` valid
for 5 minutes. Show the summary to the user, obtain their explicit confirmation, then call the
execution (\`POST /orders\`, \`/opinions\`, \`/backs\`) with exactly \`{"confirm_token": "…"}\`.
Retrying an order or a back with the same token is safe: it answers \`200\` with the same result
and \`replayed: true\`. Publishing an opinion is strictly single-use: a retry is
\`409 CONFIRM_TOKEN_USED\`.

## Errors

Every error is \`{"error": {"code", "message", "details"}}\` with a code from a closed set;
\`message\` is for people, \`code\` and \`details\` (\`field\`, \`retry_after\`, \`required_scope\`)
for programs.

## TypeScript client

\`@openpm/client\` (\`clients/typescript\` in the gateway's repository, generated from this
document) has a typed function per operation and \`previewConfirmExecute\` for the two phases.
It has no dependency and works from ES modules, CommonJS and TypeScript:

\`\`\`sh
npm pack ./clients/typescript             # in the gateway's repository: openpm-client-0.1.0.tgz
npm install ./openpm-client-0.1.0.tgz     # in your project
\`\`\`

\`\`\`ts
import { createOpenPmClient, listTopics, placeOrder, previewConfirmExecute, previewOrder } from ${CLIENT_PACKAGE};

const client = createOpenPmClient({ baseUrl: 'https://gateway.example/open/v1', apiKey });
const { data: page } = await listTopics({ client, query: { limit: 5 } });
const outcome = await previewConfirmExecute({
  preview: async () => (await previewOrder({ client, path: { topic_id }, body: { option_id, amount_coins: 25 } })).data,
  confirm: (preview) => askUser(preview.summary),
  execute: async (token) => (await placeOrder({ client, body: { confirm_token: token } })).data,
});
\`\`\`

## Rate limits

Per key, by default: 120 requests a minute and 10,000 a day; search another 30 a minute;
executions another 10 a minute and 200 a day. A deployment may set others: the headers say
which apply. Answers carry \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and
\`X-RateLimit-Reset\` for the binding minute window; \`429 RATE_LIMITED\` carries \`Retry-After\`.

## MCP

AI agents reach the same operations as MCP tools at \`/mcp\` (Streamable HTTP, stateless) with
the same \`Authorization\` header; each operation below names its tool in \`x-mcp-tool\`. A read
key sees ${readTools} tools, a read and write key ${tools.length}. See the [MCP guide](/docs/mcp) for connecting a
client, tool annotations and results.
`;
}
