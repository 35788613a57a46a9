/**
 * An operation of the open contract, written once: its input and output schemas (zod, the one
 * source of truth for validation, OpenAPI and MCP), its REST route, its MCP exposure and its
 * execute function. REST routes and MCP tools are thin adapters over this shape.
 */
import type { z } from 'zod';
import type { Caller, Scope } from '../auth/caller.ts';
import type { Services } from '../services.ts';
import { bindUpstream, type BoundUpstream } from '../upstream/bound.ts';
import type { Language } from '../i18n/languages.ts';
import type { LimitClass } from '../limits/windows.ts';
import type { Execution } from '../confirm/execute-once.ts';
import type { ErrorCode } from '../errors/codes.ts';
import type { ListCursors } from '../pagination/cursor.ts';
import type { OperationAudit } from '../audit/record.ts';
import type { ExecutionTrail } from '../audit/trail.ts';

export interface OperationLogger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * What an operation may use of the replica's services: the web address for urls, cursors, the
 * confirm-token signer and claim store, token metrics and the clock. Redis, authentication,
 * limits and the kill switch stay with the pipeline and the surfaces.
 */
export interface OperationDeps {
  config: Pick<Services['config'], 'PUBLIC_WEB_URL'>;
  cursors: Services['cursors'];
  confirm: Services['confirm'];
  metrics: Pick<Services['metrics'], 'token'>;
  now: () => number;
}

export interface OperationContext {
  caller: Caller;
  /** This operation's list cursors: they open only cursors this operation issued. */
  cursors: ListCursors;
  lang: Language;
  requestId: string;
  log: OperationLogger;
  services: OperationDeps;
  upstream: BoundUpstream;
  /** Executing operations: the audit attempt their execution reports to (docs/audit.md). */
  trail?: ExecutionTrail;
}

export interface OperationResult<T> {
  body: T;
  /** HTTP status on REST (200 unless said); MCP ignores it. */
  status?: number;
}

export type OperationKind = 'read' | 'preview' | 'execute';

/** The groups of the API reference; src/surfaces/rest/openapi.ts describes each. */
export type OperationTag = 'Search' | 'Topics' | 'Catalog' | 'Users' | 'Account' | 'Orders' | 'Opinions' | 'Backs';

export interface Operation<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  /** Stable id; the MCP tool name when the operation is a tool. */
  name: string;
  title: string;
  /** Written for a reader who has only this text: what it returns, when to use it, which ids. */
  description: string;
  scope: Scope;
  kind: OperationKind;
  /**
   * Only the one operation whose calls also spend the search budget declares it (`search`);
   * every other operation's class follows from its kind (limitClassOf).
   */
  limit?: 'search';
  /** Executing operations only: the confirm action they run and what a retried token gets. */
  execution?: Execution;
  /**
   * Executing operations only: what their audit record names (docs/audit.md). The pipeline
   * writes one record per call of an operation that declares it.
   */
  audit?: OperationAudit;
  /**
   * Titles, options or opinions in the answer: `true`, in the caller's language (REST's
   * Accept-Language, MCP's `language`); `'preview'`, in the language of the preview its confirm
   * token carries, so that every replay is identical on both surfaces; MCP still takes the
   * `language` argument every tool returning such text takes, checked like any
   * other, without changing the answer (docs/contract/localisation.md); `false`, none.
   */
  localised: boolean | 'preview';
  rest: { method: 'GET' | 'POST'; path: string };
  /** The group it is listed under in the API reference (the OpenAPI document's tags). */
  tag: OperationTag;
  /** Exposed as an MCP tool (docs/contract/mcp.md#mcp-tools lists which). */
  mcp: boolean;
  /** All parameters (path, query, body) under their REST names, as one object schema. */
  input: I;
  output: O;
  /**
   * The contract's codes this operation answers beyond those every operation can (a bad
   * argument, authentication, scope, limits, the kill switch, INTERNAL); the OpenAPI document
   * describes its error answers from them (docs/contract/errors.md#error-codes).
   */
  errors?: readonly ErrorCode[];
  execute(ctx: OperationContext, input: z.infer<I>): Promise<OperationResult<z.infer<O>>>;
}

/**
 * Which per-key windows one call consumes (docs/contract/limits.md#limit-classes): an execution
 * also the write windows, search also the search budget, every other call (previews included)
 * the read windows alone. Both surfaces count by this, never by name.
 */
export function limitClassOf(op: Pick<Operation, 'kind' | 'limit'>): LimitClass {
  return op.limit ?? (op.kind === 'execute' ? 'write' : 'read');
}

/** REST negotiates its language (Accept-Language in, Content-Language and Vary out). */
export function negotiatesLanguage(op: Pick<Operation, 'localised'>): boolean {
  return op.localised === true;
}

/** Over MCP it takes the optional `language` argument (docs/contract/localisation.md#mcp-language). */
export function takesLanguage(op: Pick<Operation, 'localised'>): boolean {
  return op.localised !== false;
}

const PATH_PARAMS = new WeakMap<Pick<Operation, 'rest'>, readonly string[]>();

/**
 * The input fields its REST path carries (`{topic_id}` in `/topics/{topic_id}`), read from the
 * path itself so they cannot disagree with it: a malformed one is 404, not 400.
 */
export function pathParamsOf(op: Pick<Operation, 'rest'>): readonly string[] {
  let names = PATH_PARAMS.get(op);
  if (names === undefined) {
    names = [...op.rest.path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1] as string);
    PATH_PARAMS.set(op, names);
  }
  return names;
}

/** Identity helper that keeps the input and output types tied to their schemas. */
export function defineOperation<I extends z.ZodType, O extends z.ZodType>(op: Operation<I, O>): Operation<I, O> {
  return op;
}

/** The narrow view of the services that every operation call receives, built once per replica. */
export function operationDeps(services: Services): OperationDeps {
  const { config, cursors, confirm, metrics, now } = services;
  return { config: { PUBLIC_WEB_URL: config.PUBLIC_WEB_URL }, cursors, confirm, metrics, now };
}

/** The context of one operation call, the same for both surfaces. */
export function operationContext(
  deps: OperationDeps,
  upstream: Services['upstream'],
  request: { operation: string; caller: Caller; lang: Language; requestId: string; log: OperationLogger; trail?: ExecutionTrail },
): OperationContext {
  const { operation, caller, lang, requestId, log, trail } = request;
  return {
    ...(trail !== undefined && { trail }),
    caller,
    lang,
    requestId,
    log,
    cursors: deps.cursors.forList(operation),
    services: deps,
    upstream: bindUpstream(upstream, { requestId, actingUser: caller.userId, log }),
  };
}
