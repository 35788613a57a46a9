/**
 * The OpenAPI document: derived from the operation list, with named components, documented
 * headers and error statuses, declared tags and described parameters, served without a key at
 * both addresses, and identical to the committed docs/openapi.json.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../../src/errors/codes.ts';
import { buildOpenApi } from '../../src/surfaces/rest/openapi.ts';
import { OPERATIONS } from '../../src/operations/index.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

type Json = Record<string, any>;
const doc = buildOpenApi(OPERATIONS) as Json;
const operations = Object.entries(doc.paths as Json).flatMap(([path, methods]) =>
  Object.entries(methods as Json).map(([method, o]) => ({ path, method, o: o as Json })),
);
const opOf = (name: string) => operations.find((x) => x.o.operationId === name)?.o as Json;
const resolve = (node: Json): Json => {
  const target = node['$ref'] as string | undefined;
  if (target === undefined) return node;
  const parts = target.replace(/^#\//, '').split('/');
  return parts.reduce<Json>((at, p) => at[p], doc);
};

describe('OpenAPI document', () => {
  it('describes every operation once, under its REST path and method', () => {
    expect(operations.map((x) => x.o.operationId).sort()).toEqual(OPERATIONS.map((o) => o.name).sort());
    for (const op of OPERATIONS) expect(doc.paths[op.rest.path]?.[op.rest.method.toLowerCase()]?.operationId).toBe(op.name);
  });

  it('names every contract resource as a component and refers to it instead of inlining', () => {
    const names = Object.keys(doc.components.schemas);
    for (const resource of [
      'TopicCard',
      'PredictionCard',
      'PollCard',
      'TopicDetail',
      'PredictionDetail',
      'PollDetail',
      'PredictionOption',
      'PollOption',
      'UserRef',
      'Comment',
      'Category',
      'Zone',
      'Contest',
      'PricePoint',
      'MyProfile',
      'Position',
      'OwnerOpinion',
      'BackedOpinion',
      'WatchlistItem',
      'LedgerEntry',
      'OrderPreview',
      'OpinionPreview',
      'BackPreview',
      'Order',
      'Back',
      'PublishedOpinion',
      'TopicList',
      'LedgerList',
      'ErrorEnvelope',
      'ConfirmRequest',
      'OrderPreviewRequest',
    ]) {
      expect(names, resource).toContain(resource);
    }
    for (const { o } of operations) {
      for (const response of Object.values(o.responses as Json)) {
        const media = resolve(response as Json).content?.['application/json'];
        expect(media.schema.$ref, o.operationId).toMatch(/^#\/components\/schemas\//);
      }
      if (o.requestBody !== undefined) expect(o.requestBody.content['application/json'].schema.$ref).toMatch(/^#\/components\/schemas\//);
    }
    // Discriminated unions say which branch a `type` value selects.
    expect(doc.components.schemas.TopicCard.discriminator).toEqual({
      propertyName: 'type',
      mapping: { prediction: '#/components/schemas/PredictionCard', poll: '#/components/schemas/PollCard' },
    });
  });

  it('keeps no component that nothing refers to', () => {
    const text = JSON.stringify({ paths: doc.paths, components: { ...doc.components, schemas: undefined } });
    const schemas = doc.components.schemas as Json;
    const referenced = new Set<string>();
    const walk = (s: string) => {
      for (const m of s.matchAll(/#\/components\/schemas\/([A-Za-z0-9]+)/g)) {
        const id = m[1] as string;
        if (!referenced.has(id)) {
          referenced.add(id);
          walk(JSON.stringify(schemas[id]));
        }
      }
    };
    walk(text);
    expect(Object.keys(schemas).sort()).toEqual([...referenced].sort());
  });

  it('documents the rate-limit headers on every success and Retry-After on every 429', () => {
    for (const { o } of operations) {
      const successes = Object.entries(o.responses as Json).filter(([s]) => s.startsWith('2'));
      expect(successes.length, o.operationId).toBeGreaterThan(0);
      for (const [, r] of successes) {
        expect(Object.keys((r as Json).headers), o.operationId).toEqual(
          expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']),
        );
      }
      expect(Object.keys(resolve(o.responses['429']).headers)).toEqual(expect.arrayContaining(['Retry-After', 'X-RateLimit-Reset']));
      expect(Object.keys(resolve(o.responses['401']).headers)).toContain('WWW-Authenticate');
    }
  });

  it('documents every error status an operation can answer', () => {
    for (const op of OPERATIONS) {
      const statuses = Object.keys(opOf(op.name).responses);
      expect(statuses, op.name).toEqual(expect.arrayContaining(['400', '401', '414', '429', '431', '500', '503']));
      if (op.scope === 'write') expect(statuses, op.name).toEqual(expect.arrayContaining(['403', '413']));
      else expect(statuses, op.name).not.toContain('413');
      if (op.kind === 'execute') expect(statuses, op.name).toEqual(expect.arrayContaining(['404', '409', '410', '422', '201']));
      if (op.rest.path.includes('{')) expect(statuses, op.name).toContain('404');
    }
    // The contract answers a retried publish with 409, never with a replay.
    expect(Object.keys(opOf('publish_opinion').responses)).not.toContain('200');
    expect(Object.keys(opOf('place_order').responses)).toEqual(expect.arrayContaining(['200', '201']));
    expect(Object.keys(opOf('back_opinion').responses)).toEqual(expect.arrayContaining(['200', '201']));
  });

  it("names every code an operation declares (errors) in its answer of that code's status", () => {
    const declaring = OPERATIONS.filter((op) => op.errors !== undefined);
    expect(declaring.map((op) => op.name)).toEqual(
      expect.arrayContaining(['preview_order', 'place_order', 'publish_opinion', 'back_opinion']),
    );
    for (const op of declaring) {
      for (const code of op.errors ?? []) {
        const answer = opOf(op.name).responses[String(ERROR_STATUS[code])] as Json | undefined;
        expect(answer, `${op.name} ${code}`).toBeDefined();
        expect(String(resolve(answer as Json).description), `${op.name} ${code}`).toContain(`\`${code}\``);
      }
    }
    // The order preview's quote can be unavailable; the executions never answer that code.
    expect(opOf('preview_order').responses['503'].description).toContain('PREVIEW_UNAVAILABLE');
    for (const name of ['place_order', 'publish_opinion', 'back_opinion']) {
      expect(resolve(opOf(name).responses['503']).description, name).not.toContain('PREVIEW_UNAVAILABLE');
    }
  });

  it('documents the rate-limit headers on the error answers of counted requests', () => {
    for (const op of OPERATIONS) {
      const counted = [
        '400',
        '500',
        ...(op.scope === 'write' ? ['403', '413'] : []),
        ...(op.kind === 'execute' ? ['404', '409', '410', '422'] : []),
      ];
      for (const status of counted) {
        const headers = Object.keys(resolve(opOf(op.name).responses[status]).headers ?? {});
        expect(headers, `${op.name} ${status}`).toEqual(
          expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']),
        );
      }
    }
  });

  it("names, in each operation's own error descriptions, only codes of that status", () => {
    for (const name of OPERATIONS.filter((op) => op.errors !== undefined).map((op) => op.name)) {
      for (const [status, r] of Object.entries(opOf(name).responses as Json)) {
        if (!/^4|^5/.test(status) || (r as Json).$ref !== undefined) continue;
        for (const m of String((r as Json).description).matchAll(/`([A-Z_]{4,})`/g)) {
          const code = m[1] as keyof typeof ERROR_STATUS;
          expect(ERROR_STATUS[code], `${name} ${status} ${code}`).toBe(Number(status));
        }
      }
    }
  });

  it('declares every tag it uses, each with a description', () => {
    const declared = new Map((doc.tags as Json[]).map((t) => [t.name, t.description]));
    for (const { o } of operations) for (const tag of o.tags as string[]) expect(declared.get(tag)?.length ?? 0, tag).toBeGreaterThan(20);
    const grouped = (doc['x-tagGroups'] as Json[]).flatMap((g) => g.tags);
    expect(grouped.sort()).toEqual([...declared.keys()].sort());
  });

  it('describes every parameter and gives an example for every path parameter', () => {
    for (const { o } of operations) {
      for (const p of (o.parameters ?? []) as Json[]) {
        const param = resolve(p);
        expect(param.description, `${o.operationId} ${param.name}`).toMatch(/\w{4,}/);
        if (param.in === 'path') expect(param.example, `${o.operationId} ${param.name}`).toBeDefined();
      }
    }
  });

  it('has an example on every request body and every response', () => {
    for (const { o } of operations) {
      if (o.requestBody !== undefined)
        expect(Object.keys(o.requestBody.content['application/json'].examples ?? {}).length, o.operationId).toBeGreaterThan(0);
      for (const [status, r] of Object.entries(o.responses as Json)) {
        const examples = resolve(r as Json).content['application/json'].examples ?? {};
        expect(Object.keys(examples).length, `${o.operationId} ${status}`).toBeGreaterThan(0);
      }
    }
  });

  it('matches the committed docs/openapi.json (run `npm run openapi` after changing an operation)', () => {
    const committed = JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8'));
    expect(committed).toEqual(JSON.parse(JSON.stringify(doc)));
  });
});

describe('served without a key', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('at /openapi.json and /open/v1/openapi.json, the same document', async () => {
    const a = await stack.get('/openapi.json');
    const b = await stack.get('/open/v1/openapi.json');
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(a.body).toEqual(JSON.parse(JSON.stringify(doc)));
    expect(b.body).toEqual(a.body);
  });

  it('with the docs page at /docs, its script from the package, and / leading there', async () => {
    const page = await fetch(`${stack.url}/docs/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<script src="js/scalar.js">');
    expect(html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
    expect((await fetch(`${stack.url}/docs/js/scalar.js`)).status).toBe(200);
    const root = await fetch(`${stack.url}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/docs/');
  });

  it('answers HEAD like GET without a body, and anything else under /docs with the contract 404', async () => {
    const head = await fetch(`${stack.url}/docs/js/scalar.js`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toMatch(/javascript/);
    expect(await head.text()).toBe('');
    const missing = await fetch(`${stack.url}/docs/no-such-page`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
  });

  it('offers the sandbox demo key for "try it", since the backend here is the sandbox', async () => {
    const html = await (await fetch(`${stack.url}/docs/`)).text();
    expect(html).toContain('"token": "opk_test_alice_write_000000000"');
  });
});

describe('the docs page against a backend that does not know the demo key', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
    await stack.admin('POST', '/keys/key_alice_write/revoke');
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('offers no key', async () => {
    const html = await (await fetch(`${stack.url}/docs/`)).text();
    expect(html).toContain('Scalar.createApiReference');
    expect(html).not.toContain('opk_test_');
  });
});
