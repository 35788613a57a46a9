/**
 * Every request the OpenAPI document gives as an example executes against a fresh sandbox, as
 * a client generated from the document (or a property-based tester driven by it) would send it:
 * each operation with its parameter examples, each request body example, and a request built
 * property by property from the body schema's own examples. Reads answer 200; a preview whose
 * example is named `can_*` answers with that flag true; each execution, given the token of its
 * preview's `can_*` example (a token cannot be a static example), answers 201.
 *
 * The gateway runs as `npm start` runs it: the built-in sandbox, default limits, the published
 * docs/openapi.json.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS } from '../../sandbox/ids.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

type Json = Record<string, any>;
const doc = JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8')) as Json;
const KEY = KEYS.aliceWrite;

interface Op {
  method: string;
  path: string;
  operation: Json;
}
const ops: Op[] = Object.entries(doc.paths as Record<string, Json>).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation: operation as Json })),
);
/** The node, or the component its `$ref` names (`#/components/<kind>/<name>`). */
function resolve(node: Json): Json {
  if (typeof node.$ref !== 'string') return node;
  const [, , kind = '', name = ''] = node.$ref.split('/');
  return resolve(doc.components[kind][name]);
}

/** The operation's URL from its parameter examples (path and query). */
function urlOf(op: Op): string {
  let path = op.path;
  const query = new URLSearchParams();
  for (const p of (op.operation.parameters ?? []).map(resolve)) {
    if (p.example === undefined) {
      expect(p.in, `${op.operation.operationId}: path parameter ${p.name} has no example`).not.toBe('path');
      continue;
    }
    if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(String(p.example)));
    else if (p.in === 'query') query.set(p.name, String(p.example));
  }
  const qs = query.toString();
  return `${doc.servers[0].url}${path}${qs === '' ? '' : `?${qs}`}`;
}

/** A body built from each property's own schema example. */
function bodyFromSchema(op: Op): Json {
  const schema = resolve(op.operation.requestBody.content['application/json'].schema);
  const body: Json = {};
  for (const [name, prop] of Object.entries(schema.properties as Record<string, Json>)) {
    if (Array.isArray(prop.examples)) body[name] = prop.examples[0];
  }
  for (const name of schema.required ?? []) expect(body, `${op.operation.operationId}: ${name} has no example`).toHaveProperty(name);
  return body;
}

const canFlag = (body: Json) => Object.keys(body).find((k) => k.startsWith('can_'));

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack.close();
});

describe('the request examples of the published OpenAPI document', () => {
  const reads = ops.filter((o) => o.method === 'GET');
  const previews = ops.filter((o) => o.method === 'POST' && o.operation.operationId.startsWith('preview_'));
  const executions = ops.filter((o) => o.method === 'POST' && !o.operation.operationId.startsWith('preview_'));
  /** The token of each preview's `can_*` example, by the path of its execution. */
  const tokens = new Map<string, string>();
  const EXECUTES: Record<string, string> = { preview_order: '/orders', preview_opinion: '/opinions', preview_back: '/backs' };

  it('covers every operation', () => {
    expect(ops.length).toBe(23);
    expect(previews.length).toBe(3);
    expect(executions.length).toBe(3);
  });

  it.each(reads.map((o) => [o.operation.operationId, o] as const))('%s answers 200 with its parameter examples', async (_name, op) => {
    const r = await stack.get(urlOf(op), KEY);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  });

  it.each(previews.map((o) => [o.operation.operationId, o] as const))(
    '%s: every body example answers 200, can_* ones can act',
    async (name, op) => {
      const examples = op.operation.requestBody.content['application/json'].examples as Record<string, { value: Json }>;
      const built = { built_from_schema: { value: bodyFromSchema(op) } };
      for (const [exampleName, example] of Object.entries({ ...examples, ...built })) {
        const r = await stack.post(urlOf(op), KEY, example.value);
        expect(r.status, `${exampleName}: ${JSON.stringify(r.body)}`).toBe(200);
        const flag = canFlag(r.body);
        expect(flag, exampleName).toBeDefined();
        if (exampleName.startsWith('can_') || exampleName === 'built_from_schema') {
          expect(r.body[flag as string], `${exampleName}: ${JSON.stringify(r.body)}`).toBe(true);
          if (exampleName.startsWith('can_') && !tokens.has(EXECUTES[name] as string))
            tokens.set(EXECUTES[name] as string, r.body.confirm_token);
        }
      }
    },
  );

  it.each(executions.map((o) => [o.operation.operationId, o] as const))(
    '%s executes with the token of its preview example',
    async (_name, op) => {
      const examples = op.operation.requestBody.content['application/json'].examples as Record<string, { value: Json }>;
      for (const example of Object.values(examples)) {
        expect(Object.keys(example.value)).toEqual(['confirm_token']);
        const token = tokens.get(op.path);
        expect(token, op.path).toBeDefined();
        const r = await stack.post(urlOf(op), KEY, { ...example.value, confirm_token: token });
        expect(r.status, JSON.stringify(r.body)).toBe(201);
      }
    },
  );
});

describe('the document names no placeholder id', () => {
  it('every uuid example in a request is an id the sandbox knows or none at all', () => {
    const text = JSON.stringify(doc);
    expect(text).not.toContain('00000000-0000-4000-8000-00000000c001"]');
    for (const op of ops) {
      for (const p of (op.operation.parameters ?? []).map(resolve)) {
        if (p.schema?.format === 'uuid' && Array.isArray(p.schema.examples)) throw new Error(`${p.name} keeps a schema example`);
      }
    }
  });
});
