/**
 * Sends the campaign's requests and checks every answer against the contract:
 *
 * - a documented success: the operation's status and its contract (zod) schema;
 * - or the contract's envelope, with a code from the closed set, at that code's status (or a
 *   documented transport status for INVALID_ARGUMENT), documented for the operation;
 * - never a 5xx unless the backend was made to fail, and never a long echo of the input.
 *
 * Write flows are tallied so the campaign can compare executions with the writes performed.
 */
import { Agent, request as httpRequest } from 'undici';
import { ErrorEnvelope } from '../../src/contract/common.ts';
import { ERROR_STATUS, type ErrorCode } from '../../src/errors/codes.ts';
import { genericMarketId, outcomeId } from '../../sandbox/ids.ts';
import { KEYS, MARKETS, OPINIONS, type Stack } from '../helpers/stack.ts';
import { ACCEPT_MCP, type Case, type OpInfo, V1 } from './cases.ts';
import { rawExchange } from './raw-http.ts';

/** Statuses the contract allows INVALID_ARGUMENT to carry besides 400 (docs/contract/errors.md#error-codes). */
const TRANSPORT_STATUSES = new Set([408, 413, 414, 431]);
/** Statuses any request to an unknown route, or one refused before routing, may get. */
const PRE_ROUTE_STATUSES = new Set([400, 401, 404, 408, 413, 414, 429, 431]);
/** An input string longer than this must not come back in an error. */
const ECHO_LIMIT = 64;
/**
 * The one 5xx a healthy gateway may answer a well-formed request: concurrent backs of one
 * opinion, where the backend asks to retry (docs/contract/writes.md#execution-refusals).
 */
const BUSY = /^\{"error":\{"code":"OPINION_BACK_RETRY"/;
/** JSON-RPC error codes a malformed MCP request may get; -32603 (internal) is a fault. */
const MCP_CLIENT_ERRORS = new Set([-32700, -32600, -32601, -32602, -32000, -32001]);

/** Whether a body is a JSON-RPC error of a malformed request. */
function mcpClientError(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as { jsonrpc?: unknown; error?: { code?: unknown } };
    return parsed.jsonrpc === '2.0' && MCP_CLIENT_ERRORS.has(parsed.error?.code as number);
  } catch {
    return false;
  }
}

/** Executions answered and writes performed, per action. */
export type WriteTally = Record<
  'order' | 'opinion' | 'back',
  { executed: number; replayed: number; performed: number; replayedByBackend: number }
>;

interface Answer {
  status: number;
  text: string;
}

export class Runner {
  readonly statuses: Record<string, number> = {};
  readonly byKind: Record<string, number> = {};
  readonly violations: string[] = [];
  requests = 0;
  faultMode = false;
  readonly writes: WriteTally = {
    order: { executed: 0, replayed: 0, performed: 0, replayedByBackend: 0 },
    opinion: { executed: 0, replayed: 0, performed: 0, replayedByBackend: 0 },
    back: { executed: 0, replayed: 0, performed: 0, replayedByBackend: 0 },
  };
  readonly #agent = new Agent({ connections: 16, pipelining: 1, keepAliveTimeout: 10_000 });

  readonly stack: Stack;

  constructor(stack: Stack) {
    this.stack = stack;
  }

  close(): Promise<void> {
    return this.#agent.close();
  }

  count(kind: string, status: number | null): void {
    this.requests++;
    this.byKind[kind] = (this.byKind[kind] ?? 0) + 1;
    const key = status === null ? 'closed' : String(status);
    this.statuses[key] = (this.statuses[key] ?? 0) + 1;
  }

  fail(index: number, what: string, c: unknown, answer: string): void {
    if (this.violations.length >= 20) return;
    const shown = JSON.stringify(c, (k, v: unknown) => {
      if (k === 'info') return (v as OpInfo | undefined)?.op.name;
      return typeof v === 'string' && v.length > 300 ? `${v.slice(0, 300)}…(${v.length})` : v;
    });
    this.violations.push(`#${index} ${what}\n  request: ${shown}\n  answer: ${answer.slice(0, 400)}`);
  }

  async http(method: string, path: string, headers: Record<string, string>, body: string | undefined): Promise<Answer> {
    // The client writes header values byte for byte only when they are printable ASCII (others
    // desynchronise its connection); non-ASCII header bytes go over the raw socket instead.
    const sent = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.replace(/[^\x20-\x7e]/g, '?')]));
    try {
      const res = await httpRequest(this.stack.url + path, {
        method: method as 'GET',
        headers: sent,
        body,
        dispatcher: this.#agent,
        headersTimeout: 15_000,
        bodyTimeout: 15_000,
      });
      return { status: res.statusCode, text: await res.body.text() };
    } catch (err) {
      // undici refuses some inputs itself (an invalid header value): that request never left.
      if ((err as { code?: string }).code === 'UND_ERR_INVALID_ARG') return { status: -1, text: '' };
      throw err;
    }
  }

  /** An envelope at its code's status; null when it is one. */
  envelopeProblem(status: number, text: string): string | null {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return 'not JSON';
    }
    const env = ErrorEnvelope.safeParse(body);
    if (!env.success) return 'not the error envelope';
    const code = env.data.error.code as ErrorCode;
    if (ERROR_STATUS[code] !== status && !(code === 'INVALID_ARGUMENT' && TRANSPORT_STATUSES.has(status)))
      return `code ${code} at status ${status}`;
    return null;
  }

  echoProblem(text: string, inputs: readonly string[]): string | null {
    for (const s of inputs)
      if (s.length > ECHO_LIMIT && text.includes(s.slice(0, ECHO_LIMIT + 1))) return `echoes an input of ${s.length} characters`;
    return null;
  }

  /** The operation a stray request happens to name after all (GET or HEAD /search?q=%FF is a search). */
  routeOf(method: string, path: string): OpInfo | undefined {
    const bare = (path.split('?')[0] ?? '').slice(V1.length);
    const m = method === 'HEAD' ? 'GET' : method;
    return this.infos.find((i) => i.method === m && new RegExp(`^${i.path.replace(/\{[a-z_]+\}/g, '[^/]+')}$`).test(bare));
  }

  checkRest(index: number, c: Extract<Case, { kind: 'rest' }>, a: Answer): void {
    if (a.status === -1) return;
    if (c.info === undefined && a.status < 300) c = { ...c, info: this.routeOf(c.method, c.path) };
    this.count('rest', a.status);
    // /mcp answers any method but POST with 405 and a JSON-RPC error (docs/contract/mcp.md).
    if (a.status === 405 && c.path.startsWith('/mcp') && c.method !== 'POST') {
      if (c.method !== 'HEAD' && JSON.parse(a.text)?.error?.code !== -32000) this.fail(index, '405 without its JSON-RPC error', c, a.text);
      return;
    }
    const documented = c.info?.statuses ?? PRE_ROUTE_STATUSES;
    if (a.status >= 500 && !this.faultMode && !BUSY.test(a.text)) {
      this.fail(index, `server error ${a.status}`, c, a.text);
      return;
    }
    if (!documented.has(a.status) && !(c.method !== c.info?.method && PRE_ROUTE_STATUSES.has(a.status))) {
      this.fail(index, `undocumented status ${a.status}`, c, a.text);
      return;
    }
    if (a.status < 300) {
      if (c.method === 'HEAD') return;
      if (c.info === undefined) {
        this.fail(index, `success ${a.status} on no operation`, c, a.text);
        return;
      }
      const parsed = c.info.op.output.safeParse(JSON.parse(a.text));
      if (!parsed.success) this.fail(index, `success outside the schema: ${JSON.stringify(parsed.error.issues[0])}`, c, a.text);
      return;
    }
    if (c.method === 'HEAD') return;
    const problem = this.envelopeProblem(a.status, a.text) ?? this.echoProblem(a.text, c.inputs);
    if (problem !== null) this.fail(index, problem, c, a.text);
  }

  checkMcp(index: number, c: Extract<Case, { kind: 'mcp' }>, a: Answer): void {
    this.count('mcp', a.status);
    if (a.status >= 500 && !this.faultMode) {
      this.fail(index, `server error ${a.status}`, c, a.text);
      return;
    }
    if (a.status === 202 && a.text === '') return;
    let body: any;
    try {
      body = JSON.parse(a.text);
    } catch {
      this.fail(index, `not JSON (status ${a.status})`, c, a.text);
      return;
    }
    const echo = this.echoProblem(a.text.replace(/"structuredContent".*$/s, ''), c.inputs);
    if (body?.error !== undefined && body?.jsonrpc === undefined) {
      const problem = this.envelopeProblem(a.status, a.text);
      if (problem !== null) this.fail(index, problem, c, a.text);
      return;
    }
    if (body?.error !== undefined) {
      if (!MCP_CLIENT_ERRORS.has(body.error.code)) this.fail(index, `JSON-RPC error ${body.error.code}`, c, a.text);
      else if (String(body.error.message ?? '').length > 300) this.fail(index, 'long JSON-RPC error message', c, a.text);
      return;
    }
    const result = body?.result;
    if (result === undefined) {
      this.fail(index, 'neither result nor error', c, a.text);
      return;
    }
    if (c.info === undefined) return;
    if (result.isError === true) {
      const text = result.content?.[0]?.text ?? '';
      const env = ErrorEnvelope.safeParse(JSON.parse(text));
      if (!env.success) {
        this.fail(index, 'tool error outside the envelope', c, a.text);
        return;
      }
      if (ERROR_STATUS[env.data.error.code as ErrorCode] >= 500 && !this.faultMode && env.data.error.code !== 'OPINION_BACK_RETRY') {
        this.fail(index, `tool error ${env.data.error.code}`, c, a.text);
        return;
      }
      if (echo !== null) this.fail(index, echo, c, a.text);
      return;
    }
    const parsed = c.info.op.output.safeParse(result.structuredContent);
    if (!parsed.success) this.fail(index, `tool result outside the schema: ${JSON.stringify(parsed.error.issues[0])}`, c, a.text);
  }

  readonly slow: string[] = [];

  readonly pending = new Map<number, Case>();

  async run(index: number, c: Case): Promise<void> {
    const t0 = performance.now();
    this.pending.set(index, c);
    try {
      await this.#run(index, c);
    } finally {
      this.pending.delete(index);
      const ms = performance.now() - t0;
      if (ms > 1000 && this.slow.length < 10) this.slow.push(`#${index} ${Math.round(ms)} ms ${JSON.stringify(c).slice(0, 200)}`);
    }
  }

  async #run(index: number, c: Case): Promise<void> {
    switch (c.kind) {
      case 'rest':
        if (c.path.startsWith('/mcp')) {
          // Stray requests to the MCP endpoint get MCP transport answers (JSON-RPC errors).
          const a = await this.http(c.method, c.path, c.headers, c.body);
          if (a.status === -1) return;
          if (c.method === 'HEAD') this.count('mcp', a.status);
          else this.checkMcp(index, { kind: 'mcp', info: undefined, headers: c.headers, body: c.body ?? '', inputs: c.inputs }, a);
          return;
        }
        this.checkRest(index, c, await this.http(c.method, c.path, c.headers, c.body));
        return;
      case 'mcp':
        this.checkMcp(index, c, await this.http('POST', '/mcp', c.headers, c.body));
        return;
      case 'raw': {
        const r = await rawExchange(this.stack.url, c.bytes);
        this.count('raw', r.status);
        if (r.status === null) return; // closed without an answer (the parser may give up on garbage that way)
        // A well-formed request after all (an odd but valid key, a HEAD, a docs redirect).
        if (r.status < 400) return;
        if (r.status >= 500) {
          this.fail(index, `server error ${r.status}`, c, r.text);
          return;
        }
        // /mcp answers its own protocol faults (a 405, a missing Accept) as JSON-RPC errors.
        if (mcpClientError(r.body)) return;
        if (!PRE_ROUTE_STATUSES.has(r.status)) {
          this.fail(index, `undocumented status ${r.status}`, c, r.text);
          return;
        }
        const problem = this.envelopeProblem(r.status, r.body) ?? this.echoProblem(r.body, [c.bytes]);
        if (problem !== null) this.fail(index, problem, c, r.text);
        return;
      }
      case 'write':
        return this.write(index, c);
    }
  }

  /** A whole write flow: preview, then execute (and maybe retry) what it offered. */
  async write(index: number, c: Extract<Case, { kind: 'write' }>): Promise<void> {
    const key = KEYS.aliceWrite;
    const call = async (
      tool: string,
      restPath: string,
      args: Record<string, unknown>,
      body: Record<string, unknown>,
    ): Promise<{ status: number; body: any }> => {
      const info = this.infos.find((i) => i.op.name === tool);
      if (c.surface === 'mcp') {
        const payload = JSON.stringify({ jsonrpc: '2.0', id: index, method: 'tools/call', params: { name: tool, arguments: args } });
        const mc: Case = { kind: 'mcp', info, headers: { ...ACCEPT_MCP, authorization: `Bearer ${key}` }, body: payload, inputs: [] };
        const a = await this.http('POST', '/mcp', mc.headers, payload);
        this.checkMcp(index, mc, a);
        const result = a.status === 200 ? JSON.parse(a.text).result : undefined;
        if (result === undefined || result.isError === true) return { status: 0, body: undefined };
        return { status: result.structuredContent?.replayed === true ? 200 : 201, body: result.structuredContent };
      }
      const rc: Case = {
        kind: 'rest',
        info,
        method: 'POST',
        path: V1 + restPath,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        inputs: [],
      };
      const a = await this.http('POST', rc.path, rc.headers, rc.body);
      this.checkRest(index, rc, a);
      return { status: a.status, body: a.status < 300 ? JSON.parse(a.text) : undefined };
    };
    let preview: { status: number; body: any };
    let execTool: string;
    let execPath: string;
    if (c.action === 'order') {
      const topic = genericMarketId(c.topic);
      const body = { option_id: outcomeId(topic, 1 + (c.amount % 2)), amount_coins: c.amount };
      preview = await call('preview_order', `/topics/${topic}/order-preview`, { topic_id: topic, ...body }, body);
      [execTool, execPath] = ['place_order', '/orders'];
    } else if (c.action === 'opinion') {
      const body = { content: `Fuzz opinion ${index}: still holding.` };
      preview = await call(
        'preview_opinion',
        `/topics/${MARKETS.aliceOpen}/opinion-preview`,
        { topic_id: MARKETS.aliceOpen, ...body },
        body,
      );
      [execTool, execPath] = ['publish_opinion', '/opinions'];
    } else {
      const body = { topic_id: MARKETS.aliceOpen };
      preview = await call(
        'preview_back',
        `/opinions/${OPINIONS.graceOnAliceOpen}/back-preview`,
        { opinion_id: OPINIONS.graceOnAliceOpen, ...body },
        body,
      );
      [execTool, execPath] = ['back_opinion', '/backs'];
    }
    const token = preview.body?.confirm_token;
    if (typeof token !== 'string') return;
    const tally = this.writes[c.action];
    for (let attempt = 0; attempt < (c.retry ? 2 : 1); attempt++) {
      const r = await call(execTool, execPath, { confirm_token: token }, { confirm_token: token });
      if (r.status === 201) tally.executed++;
      else if (r.status === 200) tally.replayed++;
    }
  }

  infos: OpInfo[] = [];
}
