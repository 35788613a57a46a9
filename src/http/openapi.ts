/**
 * The OpenAPI 3.1 document of the REST surface, generated from the operation list: the same
 * zod schemas that validate requests and check responses. Served at GET /openapi.json (no key
 * needed) and written to docs/openapi.json by `npm run openapi`.
 */
import { z } from 'zod';
import { ErrorEnvelope } from '../contract/common.ts';
import { ERROR_STATUS, type ErrorCode } from '../errors/codes.ts';
import type { Operation } from '../operations/operation.ts';

type Json = Record<string, unknown>;

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): Json {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
  delete json['$schema'];
  return json;
}

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

/** Error statuses every operation can answer, plus the ones its kind adds. */
function errorResponses(op: Operation): Json {
  const out: Json = {
    '400': errorResponse('INVALID_ARGUMENT (details.field names the parameter)'),
    '401': {
      ...errorResponse('UNAUTHORIZED: missing, invalid, revoked or expired key'),
      headers: { 'WWW-Authenticate': { schema: { type: 'string' }, description: 'Bearer realm="open-api"' } },
    },
    '404': errorResponse('NOT_FOUND'),
    '429': {
      ...errorResponse('RATE_LIMITED'),
      headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait' } },
    },
    '500': errorResponse('INTERNAL'),
    '503': errorResponse('SERVICE_DISABLED (kill switch)'),
  };
  if (op.scope === 'write') out['403'] = errorResponse('FORBIDDEN_SCOPE: the key lacks the write scope');
  if (op.kind === 'execute') {
    const codes = (Object.keys(ERROR_STATUS) as ErrorCode[]).filter((c) => [409, 410, 422].includes(ERROR_STATUS[c]));
    for (const status of ['409', '410', '422']) {
      out[status] = errorResponse(codes.filter((c) => String(ERROR_STATUS[c]) === status).join(', '));
    }
  }
  return out;
}

export function buildOpenApi(operations: readonly Operation[], serverUrl = '/open/v1'): Json {
  const paths: Record<string, Json> = {};
  for (const op of operations) {
    const input = schemaOf(op.input, 'input');
    const props = (input['properties'] ?? {}) as Record<string, Json>;
    const required = new Set((input['required'] ?? []) as string[]);
    const pathNames = [...op.rest.path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1] as string);
    const parameters: Json[] = pathNames.map((name) => ({ name, in: 'path', required: true, schema: props[name] ?? { type: 'string' } }));
    let requestBody: Json | undefined;
    if (op.rest.method === 'GET') {
      for (const [name, schema] of Object.entries(props)) {
        if (pathNames.includes(name)) continue;
        parameters.push({ name, in: 'query', required: required.has(name), schema, description: schema['description'] });
      }
      if (op.localised) parameters.push({ name: 'Accept-Language', in: 'header', required: false, schema: { type: 'string' } });
    } else {
      const bodyProps = Object.fromEntries(Object.entries(props).filter(([k]) => !pathNames.includes(k)));
      requestBody = {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: bodyProps,
              required: [...required].filter((k) => !pathNames.includes(k)),
              additionalProperties: false,
            },
          },
        },
      };
    }
    const success = op.kind === 'execute' ? { '201': 'First execution', '200': 'Replay of the first execution (replayed: true)' } : { '200': 'OK' };
    const responses: Json = {};
    for (const [status, description] of Object.entries(success)) {
      responses[status] = { description, content: { 'application/json': { schema: schemaOf(op.output, 'output') } } };
    }
    Object.assign(responses, errorResponses(op));
    const path = (paths[op.rest.path] ??= {});
    path[op.rest.method.toLowerCase()] = {
      operationId: op.name,
      summary: op.title,
      description: op.description,
      tags: [op.scope === 'write' ? 'write' : op.rest.path.startsWith('/me') ? 'owner' : 'read'],
      'x-mcp-tool': op.mcp ? op.name : undefined,
      security: [{ apiKey: [] }],
      parameters,
      ...(requestBody === undefined ? {} : { requestBody }),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Open Prediction-Market API',
      version: '2.1.0',
      description: 'REST surface of the open contract. Every request needs `Authorization: Bearer <API key>`.',
    },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'Personal API key (opk_live_… or opk_test_…)' } },
      schemas: { Error: schemaOf(ErrorEnvelope, 'output') },
    },
    paths,
  };
}
