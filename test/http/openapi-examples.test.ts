/**
 * The examples of the OpenAPI document are real answers (scripts/openapi-examples.ts captures
 * them from the sandbox). Each one must satisfy its contract schema, both as zod parses it and
 * as the document's JSON Schema says, and a fresh capture must give the same examples.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ErrorEnvelope } from '../../src/contract/index.ts';
import { ERROR_STATUS, type ErrorCode } from '../../src/errors/codes.ts';
import { buildOpenApi, loadExamples, type Example } from '../../src/surfaces/rest/openapi.ts';
import { OPERATIONS } from '../../src/operations/index.ts';
import { captureExamples } from '../../scripts/openapi-examples.ts';

type Json = Record<string, any>;
const examples = loadExamples();
const doc = buildOpenApi(OPERATIONS, '/open/v1', examples) as Json;

const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
ajv.addFormat('date-time', (s: string) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(s) && !Number.isNaN(Date.parse(s)));
ajv.addFormat('uri', (s: string) => URL.canParse(s));
ajv.addSchema({ $id: 'https://openapi.test/doc', components: { schemas: doc.components.schemas } });
const jsonSchema = (ref: string) => {
  const validate = ajv.getSchema(`https://openapi.test/doc${ref}`);
  if (validate === undefined) throw new Error(`no schema ${ref}`);
  return validate;
};

function expectValid(ref: string, value: unknown, what: string): void {
  const validate = jsonSchema(ref);
  expect(validate(value), `${what}: ${JSON.stringify(validate.errors)}`).toBe(true);
}

function expectError(status: string, e: Example, what: string): void {
  const parsed = ErrorEnvelope.parse(e.value);
  // Oversized requests are INVALID_ARGUMENT under their own status (DECISIONS.md section 5).
  const expected = ['413', '414', '431'].includes(status) ? 400 : Number(status);
  expect(ERROR_STATUS[parsed.error.code as ErrorCode], `${what}: ${parsed.error.code}`).toBe(expected);
  expectValid('#/components/schemas/ErrorEnvelope', e.value, what);
}

describe('OpenAPI examples', () => {
  it('cover every operation', () => {
    expect(Object.keys(examples.operations).sort()).toEqual(OPERATIONS.map((o) => o.name).sort());
  });

  it.each(OPERATIONS.map((op) => [op.name, op] as const))('%s: every example satisfies its schema', (_name, op) => {
    const own = examples.operations[op.name];
    expect(own).toBeDefined();
    const operation = doc.paths[op.rest.path][op.rest.method.toLowerCase()];
    for (const [status, set] of Object.entries(own?.responses ?? {})) {
      for (const [name, e] of Object.entries(set)) {
        const what = `${op.name} ${status} ${name}`;
        if (status.startsWith('2')) {
          op.output.parse(e.value);
          expectValid(operation.responses[status].content['application/json'].schema.$ref, e.value, what);
        } else {
          expectError(status, e, what);
        }
      }
    }
    for (const [name, e] of Object.entries(own?.requestBodies ?? {})) {
      const pathParams = Object.fromEntries(Object.entries(own?.parameters ?? {}).filter(([k]) => op.rest.path.includes(`{${k}}`)));
      (op.input as z.ZodType).parse({ ...(e.value as object), ...pathParams });
      expectValid(operation.requestBody.content['application/json'].schema.$ref, e.value, `${op.name} body ${name}`);
    }
    // The parameters of the main example are accepted too.
    if (op.rest.method === 'GET') (op.input as z.ZodType).parse(own?.parameters);
  });

  it('answers shared by every operation are contract errors of their status', () => {
    for (const status of ['400', '401', '403', '404', '413', '414', '429', '431', '500', '503']) {
      const set = examples.shared[status] ?? {};
      expect(Object.keys(set).length, status).toBeGreaterThan(0);
      for (const [name, e] of Object.entries(set)) expectError(status, e, `shared ${status} ${name}`);
    }
  });

  it('are what the gateway answers today (run `npm run openapi` when this fails)', { timeout: 90_000 }, async () => {
    const fresh = await captureExamples();
    expect(fresh.operations).toEqual(examples.operations);
    for (const [status, set] of Object.entries(examples.shared)) {
      for (const [name, e] of Object.entries(set)) {
        // An answer written from the contract stays until a capture sees the gateway give it.
        if (e.contract === true && fresh.shared[status]?.[name]?.contract === true) continue;
        expect(fresh.shared[status]?.[name], `shared ${status} ${name}`).toEqual(e);
      }
    }
  });
});
