/**
 * MCP tool definitions, derived once at start-up from the operation list: names, titles,
 * descriptions, JSON Schemas and annotations. Per request, the server only picks the list for
 * the caller's scopes; nothing is converted or compiled again (anything built per request is
 * paid on every call).
 */
import { z } from 'zod';
import type { Scope } from '../../auth/caller.ts';
import { LANGUAGES } from '../../i18n/languages.ts';
import { negotiatesLanguage, takesLanguage, type Operation } from '../../operations/operation.ts';
import { compactInputSchema, compactOutputSchema } from './compact-schema.ts';

const REQUIRES_USER_INTERACTION = 'openpm/requiresUserInteraction';

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; [k: string]: unknown };
  outputSchema: { type: 'object'; [k: string]: unknown };
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint?: boolean; openWorldHint: boolean };
  _meta?: Record<string, unknown>;
}

export interface Tool {
  definition: ToolDefinition;
  operation: Operation;
}

/** No enum: aliases fold onto a supported code (docs/mcp.md#language), so any string is sent. */
const LANGUAGE_PROPERTY = {
  type: 'string',
  description: `${LANGUAGES.join('|')}; default en.`,
};
/** On a tool that takes `language` but does not negotiate its answer: it keeps its preview's. */
const PREVIEW_LANGUAGE_PROPERTY = {
  type: 'string',
  description: `Checked as elsewhere (${LANGUAGES.join('|')}); the answer keeps the language of the preview.`,
};

export function toolFor(op: Operation): Tool {
  const input = compactInputSchema(jsonSchemaOf(op.input, 'input'));
  if (takesLanguage(op)) {
    const language = negotiatesLanguage(op) ? LANGUAGE_PROPERTY : PREVIEW_LANGUAGE_PROPERTY;
    input['properties'] = { ...(input['properties'] as object), language };
  }
  const executing = op.kind === 'execute';
  const definition: ToolDefinition = {
    name: op.name,
    title: op.title,
    description: op.description,
    inputSchema: input,
    outputSchema: compactOutputSchema(jsonSchemaOf(op.output, 'output')),
    // The title travels once, at the top level (annotations.title predates it).
    annotations: {
      readOnlyHint: !executing,
      destructiveHint: executing,
      ...(op.execution !== undefined ? { idempotentHint: op.execution.retry === 'replay' } : {}),
      openWorldHint: false,
    },
  };
  if (executing) definition._meta = { [REQUIRES_USER_INTERACTION]: true };
  return { definition, operation: op };
}

/** The tool catalogues per scope set, built once, with their `tools/list` answers. */
export class ToolRegistry {
  readonly read: readonly Tool[];
  readonly readWrite: readonly Tool[];
  readonly #byName: ReadonlyMap<string, Tool>;
  readonly #listings: { read: { tools: ToolDefinition[] }; readWrite: { tools: ToolDefinition[] } };

  constructor(operations: readonly Operation[]) {
    const tools = operations.filter((op) => op.mcp).map(toolFor);
    this.readWrite = tools;
    this.read = tools.filter((t) => t.operation.scope === 'read');
    this.#byName = new Map(tools.map((t) => [t.definition.name, t]));
    this.#listings = {
      read: { tools: this.read.map((t) => t.definition) },
      readWrite: { tools: this.readWrite.map((t) => t.definition) },
    };
  }

  visibleTo(scopes: ReadonlySet<Scope>): readonly Tool[] {
    return scopes.has('write') ? this.readWrite : this.read;
  }

  /** The `tools/list` result for a caller: a read key never sees the write tools. */
  listingFor(scopes: ReadonlySet<Scope>): { tools: ToolDefinition[] } {
    return scopes.has('write') ? this.#listings.readWrite : this.#listings.read;
  }

  /**
   * The tool of that name, whatever the caller's scopes: a read key never sees a write tool in
   * `tools/list`, but calling one by name reaches the pipeline's scope gate and is answered
   * `FORBIDDEN_SCOPE` naming the scope it needs, as over REST (docs/contract/mcp.md).
   */
  find(name: string): Tool | undefined {
    return this.#byName.get(name);
  }
}

function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): { type: 'object'; [k: string]: unknown } {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  delete json['$schema'];
  // MCP wants an object at the root; a union of objects gets the type stated explicitly.
  return { ...(portable(json) as Record<string, unknown>), type: 'object' };
}

/**
 * `type: ["boolean", "null"]` is valid JSON Schema, but clients that map tool schemas onto a
 * single-type dialect reject it; the same meaning as `anyOf` branches travels everywhere.
 */
function portable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(portable);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = portable(v);
  const type = out['type'];
  if (Array.isArray(type) && type.length > 1) {
    delete out['type'];
    const branches = type.map((t) => ({ type: t }));
    return out['anyOf'] === undefined ? { ...out, anyOf: branches } : { allOf: [out, { anyOf: branches }] };
  }
  return out;
}
