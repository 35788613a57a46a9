import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildOpenApi } from '../../src/http/openapi.ts';
import { OPERATIONS } from '../../src/operations/index.ts';

describe('OpenAPI document', () => {
  const doc = buildOpenApi(OPERATIONS) as { openapi: string; paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>> };

  it('describes every operation once, under its REST path and method', () => {
    const ids = Object.values(doc.paths).flatMap((p) => Object.values(p).map((o) => o.operationId));
    expect(ids.sort()).toEqual(OPERATIONS.map((o) => o.name).sort());
    for (const op of OPERATIONS) expect(doc.paths[op.rest.path]?.[op.rest.method.toLowerCase()]?.operationId).toBe(op.name);
  });

  it('is OpenAPI 3.1 with the error envelope on every operation', () => {
    expect(doc.openapi).toBe('3.1.0');
    for (const methods of Object.values(doc.paths)) {
      for (const o of Object.values(methods)) {
        expect(o.responses['401']).toBeDefined();
        expect(o.responses['429']).toBeDefined();
      }
    }
  });

  it('matches the committed docs/openapi.json (run `npm run openapi` after changing an operation)', () => {
    const committed = JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8'));
    expect(committed).toEqual(JSON.parse(JSON.stringify(doc)));
  });
});
