/**
 * Checks over the whole operation list: every operation declares the metadata its policies are
 * derived from, the MCP tool list and the OpenAPI document come from that one list, and no
 * policy anywhere is chosen by comparing an operation's name.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildOpenApi } from '../../src/surfaces/rest/openapi.ts';
import { ToolRegistry } from '../../src/surfaces/mcp/tools.ts';
import { OPERATIONS } from '../../src/operations/index.ts';
import { limitClassOf, negotiatesLanguage, takesLanguage } from '../../src/operations/operation.ts';

const READ_SCOPES = new Set(['read'] as const);
const ALL_SCOPES = new Set(['read', 'write'] as const);

describe('the operation registry', () => {
  it('names are unique, and so are REST method + path pairs', () => {
    const names = OPERATIONS.map((op) => op.name);
    expect(new Set(names).size).toBe(names.length);
    const routes = OPERATIONS.map((op) => `${op.rest.method} ${op.rest.path}`);
    expect(new Set(routes).size).toBe(routes.length);
  });

  it('derives the limit class from the kind, search_topics alone declaring its own', () => {
    expect(OPERATIONS.filter((op) => op.limit !== undefined).map((op) => [op.name, op.limit])).toEqual([['search_topics', 'search']]);
    const classes = Object.fromEntries(OPERATIONS.map((op) => [op.name, limitClassOf(op)]));
    expect(classes).toMatchObject({ search_topics: 'search', place_order: 'write', preview_order: 'read', get_topic: 'read' });
  });

  it.each(OPERATIONS.map((op) => [op.name, op] as const))('%s has its limit class, scope and retry policy', (_name, op) => {
    expect(['read', 'search', 'write']).toContain(limitClassOf(op));
    // Executions spend the write windows and declare what a retried token gets; nothing else does.
    if (op.kind === 'execute') {
      expect(limitClassOf(op)).toBe('write');
      expect(op.scope).toBe('write');
      expect(['replay', 'refuse']).toContain(op.execution?.retry);
    } else {
      expect(op.execution).toBeUndefined();
      expect(limitClassOf(op)).not.toBe('write');
    }
    if (op.kind === 'preview') expect(op.scope).toBe('write');
  });

  it.each(OPERATIONS.map((op) => [op.name, op] as const))(
    '%s takes a strict object: unknown fields are refused on both surfaces',
    (_name, op) => {
      // A preprocessing step (search's ignored paging) may wrap it; the object inside is what decides.
      const object = op.input instanceof z.ZodPipe ? op.input.out : op.input;
      expect(object).toBeInstanceOf(z.ZodObject);
      const probe = op.input.safeParse({ __unknown_field__: 1 });
      expect(probe.success).toBe(false);
      const issues = probe.error?.issues ?? [];
      expect(issues.some((i) => i.code === 'unrecognized_keys')).toBe(true);
    },
  );

  it('the MCP tools are exactly the operations marked for MCP, filtered by scope', () => {
    const registry = new ToolRegistry(OPERATIONS);
    const mcpOps = OPERATIONS.filter((op) => op.mcp);
    expect(registry.listingFor(ALL_SCOPES).tools.map((t) => t.name)).toEqual(mcpOps.map((op) => op.name));
    expect(registry.listingFor(READ_SCOPES).tools.map((t) => t.name)).toEqual(
      mcpOps.filter((op) => op.scope === 'read').map((op) => op.name),
    );
    expect(registry.listingFor(READ_SCOPES).tools).toHaveLength(12);
    expect(registry.listingFor(ALL_SCOPES).tools).toHaveLength(18);
    // Annotations follow the declared kind and retry policy.
    for (const tool of registry.listingFor(ALL_SCOPES).tools) {
      const op = OPERATIONS.find((o) => o.name === tool.name);
      expect(tool.annotations.destructiveHint).toBe(op?.kind === 'execute');
      expect(tool.annotations.readOnlyHint).toBe(op?.kind !== 'execute');
      if (op?.execution !== undefined) expect(tool.annotations.idempotentHint).toBe(op.execution.retry === 'replay');
    }
  });

  it('the OpenAPI document has one operation per registry entry, at its declared path', () => {
    const doc = buildOpenApi(OPERATIONS) as { paths: Record<string, Record<string, { operationId: string }>> };
    const documented = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([m]) => ['get', 'post'].includes(m))
        .map(([m, o]) => `${o.operationId} ${m.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(OPERATIONS.map((op) => `${op.name} ${op.rest.method} ${op.rest.path}`).sort());
  });

  it('language follows the declaration: tools and documented parameters alike', () => {
    const doc = buildOpenApi(OPERATIONS) as {
      paths: Record<string, Record<string, { operationId: string; parameters?: { $ref?: string }[] }>>;
    };
    const documented = new Map(
      Object.values(doc.paths).flatMap((methods) => Object.values(methods).map((o) => [o.operationId, o] as const)),
    );
    const tools = new Map(new ToolRegistry(OPERATIONS).listingFor(ALL_SCOPES).tools.map((t) => [t.name, t]));
    for (const op of OPERATIONS) {
      // Only a confirmed action keeps its preview's language, which its token carries.
      if (op.localised === 'preview') expect(op.kind, op.name).toBe('execute');
      const acceptLanguage = (documented.get(op.name)?.parameters ?? []).some((p) => p.$ref?.endsWith('/AcceptLanguage'));
      expect(acceptLanguage, op.name).toBe(negotiatesLanguage(op));
      const tool = tools.get(op.name);
      if (tool !== undefined) expect(Object.keys(tool.inputSchema.properties ?? {}).includes('language'), op.name).toBe(takesLanguage(op));
    }
    expect(OPERATIONS.filter((op) => takesLanguage(op) && !negotiatesLanguage(op)).map((op) => op.name)).toEqual(['place_order']);
  });

  it('no source file chooses a policy by comparing an operation name', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles('src')) {
      const text = readFileSync(file, 'utf8');
      for (const op of OPERATIONS) {
        const compared = new RegExp(`[=!]==?\\s*['"\`]${op.name}['"\`]|['"\`]${op.name}['"\`]\\s*[=!]==?|case\\s+['"\`]${op.name}['"\`]`);
        if (compared.test(text)) offenders.push(`${file}: ${op.name}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it("declares (errors) every code of the contract its own module throws, beyond every operation's", () => {
    // What any operation can answer: the pipeline's, a bad argument, a missing resource, a fault.
    const common = new Set([
      'INVALID_ARGUMENT',
      'NOT_FOUND',
      'INTERNAL',
      'UNAUTHORIZED',
      'FORBIDDEN_SCOPE',
      'RATE_LIMITED',
      'SERVICE_DISABLED',
    ]);
    const files = sourceFiles('src/operations');
    const undeclared: string[] = [];
    for (const op of OPERATIONS) {
      // The module defining it: `name: '<name>'`, or the name handed to a factory (the ledgers).
      const defines = (f: string) => readFileSync(f, 'utf8').includes(`name: '${op.name}'`);
      const file = files.find(defines) ?? files.find((f) => readFileSync(f, 'utf8').includes(`'${op.name}'`));
      expect(file, op.name).toBeDefined();
      for (const m of readFileSync(file as string, 'utf8').matchAll(/new ApiError\('([A-Z_]+)'/g)) {
        const code = m[1] as string;
        if (!common.has(code) && !(op.errors ?? []).includes(code as never)) undeclared.push(`${op.name}: ${code}`);
      }
    }
    expect(undeclared).toEqual([]);
  });
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}
