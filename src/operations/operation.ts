/**
 * An operation of the open contract, written once: its input and output schemas (zod, the one
 * source of truth for validation, OpenAPI and MCP), its REST route, its MCP exposure and its
 * execute function. REST routes and MCP tools are thin adapters over this shape.
 */
import type { z } from 'zod';
import type { Caller, Scope } from '../auth/caller.ts';
import type { Services } from '../services.ts';
import type { CallContext, CallOptions } from '../upstream/client.ts';
import type { Language } from '../i18n/languages.ts';

export interface OperationLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Upstream calls made for the caller: request id and acting user already bound. */
export interface BoundUpstream {
  call<S extends z.ZodType>(opts: CallOptions<S>): Promise<z.infer<S>>;
}

export interface OperationContext {
  caller: Caller;
  lang: Language;
  requestId: string;
  log: OperationLogger;
  services: Services;
  upstream: BoundUpstream;
}

export interface OperationResult<T> {
  body: T;
  /** HTTP status on REST (200 unless said); MCP ignores it. */
  status?: number;
}

export type OperationKind = 'read' | 'preview' | 'execute';

export interface Operation<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  /** Stable id; the MCP tool name when the operation is a tool. */
  name: string;
  title: string;
  /** Written for a reader who has only this text: what it returns, when to use it, which ids. */
  description: string;
  scope: Scope;
  kind: OperationKind;
  /** Titles, options or opinions follow the caller's language. */
  localised: boolean;
  rest: { method: 'GET' | 'POST'; path: string };
  /** Exposed as an MCP tool (SPEC 5.3 lists which). */
  mcp: boolean;
  /** All parameters (path, query, body) under their REST names, as one object schema. */
  input: I;
  output: O;
  /** Path parameters among the input's fields: a malformed one is 404, not 400. */
  pathParams?: readonly string[];
  execute(ctx: OperationContext, input: z.infer<I>): Promise<OperationResult<z.infer<O>>>;
}

/** Identity helper that keeps the input and output types tied to their schemas. */
export function defineOperation<I extends z.ZodType, O extends z.ZodType>(op: Operation<I, O>): Operation<I, O> {
  return op;
}

export function bindUpstream(services: Services, ctx: CallContext): BoundUpstream {
  return { call: (opts) => services.upstream.call(ctx, opts) };
}

/** The context of one operation call, the same for both surfaces. */
export function operationContext(
  services: Services,
  request: { caller: Caller; lang: Language; requestId: string; log: OperationLogger },
): OperationContext {
  const { caller, requestId, log } = request;
  return { ...request, services, upstream: bindUpstream(services, { requestId, actingUser: caller.userId, log }) };
}
