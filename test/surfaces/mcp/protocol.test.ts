/**
 * The one MCP implementation (src/surfaces/mcp/protocol.ts) against a pipeline that records what
 * reaches it: what a tool call hands the pipeline on each revision (the trace context of
 * `_meta`), and the size cap of an answer.
 */
import { describe, expect, it } from 'vitest';
import type { Caller } from '../../../src/auth/caller.ts';
import type { Invocation, Pipeline } from '../../../src/operations/invoke.ts';
import { OPERATIONS } from '../../../src/operations/index.ts';
import type { Operation } from '../../../src/operations/operation.ts';
import { answerMcp, MAX_ANSWER_BYTES } from '../../../src/surfaces/mcp/protocol.ts';
import { ToolRegistry } from '../../../src/surfaces/mcp/tools.ts';

const caller: Caller = { userId: 'u1', keyId: 'k1', keyHash: 'h', scopes: new Set(['read']) };
const registry = new ToolRegistry(OPERATIONS);
const noLog = { info() {}, warn() {}, error() {}, debug() {} } as unknown as Invocation['log'];
const ACCEPT = 'application/json, text/event-stream';

function recorder(body: unknown = { ok: true }) {
  const calls: { op: string; call: Invocation }[] = [];
  let metered = 0;
  const pipeline: Pipeline = {
    async invoke(op: Operation, _raw: Record<string, unknown>, call: Invocation) {
      calls.push({ op: op.name, call });
      call.onMetered?.({});
      return { status: 200, body, lang: 'en' };
    },
    async meter() {
      metered++;
      return {};
    },
    async meterRefused() {
      return {};
    },
  };
  return { calls, pipeline, metered: () => metered };
}

const TRACE = {
  traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
  tracestate: 'vendor=1',
  baggage: 'tenant=a',
};

describe('the trace context a client puts in _meta', () => {
  it('reaches the pipeline on the 2025 revisions, string values of the three keys only', async () => {
    const r = recorder();
    const body = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'get_my_profile', arguments: {}, _meta: { ...TRACE, other: 'x', baggage: 7 } },
    };
    await answerMcp(body, { accept: ACCEPT }, { caller, requestId: 'r', log: noLog, pipeline: r.pipeline, registry, confirmation: null });
    expect(r.calls[0]?.call.traceCarrier).toEqual({ traceparent: TRACE.traceparent, tracestate: TRACE.tracestate });
    expect(r.calls[0]?.call.confirmation).toBeUndefined();
    expect(r.calls[0]?.call.mcpProtocolVersion).toBeUndefined();
  });

  it('reaches the pipeline on 2026-07-28, beside the envelope', async () => {
    const r = recorder();
    const body = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'get_my_profile',
        arguments: {},
        _meta: {
          ...TRACE,
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    };
    const headers = { accept: ACCEPT, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'get_my_profile' };
    const answer = await answerMcp(body, headers, {
      caller,
      requestId: 'r',
      log: noLog,
      pipeline: r.pipeline,
      registry,
      confirmation: null,
    });
    expect(answer.status).toBe(200);
    expect(r.calls[0]?.call.traceCarrier).toEqual(TRACE);
    expect(r.calls[0]?.call.mcpProtocolVersion).toBe('2026-07-28');
  });

  it('is left unset when the client sends none', async () => {
    const r = recorder();
    await answerMcp(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_my_profile', arguments: {} } },
      { accept: ACCEPT },
      { caller, requestId: 'r', log: noLog, pipeline: r.pipeline, registry, confirmation: null },
    );
    expect(r.calls[0]?.call.traceCarrier).toBeUndefined();
  });
});

describe('the size of an answer', () => {
  it(`stops at ${MAX_ANSWER_BYTES} bytes: later messages are not run, and each is answered with an error`, async () => {
    // Each tool result carries its body twice (structured and as text): about 200 KB per answer.
    const r = recorder({ blob: 'x'.repeat(100_000) });
    const batch = Array.from({ length: 10 }, (_, i) => ({
      jsonrpc: '2.0',
      id: i + 1,
      method: 'tools/call',
      params: { name: 'get_my_profile', arguments: {} },
    }));
    const answer = await answerMcp(
      batch,
      { accept: ACCEPT },
      { caller, requestId: 'r', log: noLog, pipeline: r.pipeline, registry, confirmation: null },
    );
    const answers = answer.body as { id: number; result?: unknown; error?: { code: number; message: string } }[];
    expect(answers.map((a) => a.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(JSON.stringify(answers).length).toBeLessThanOrEqual(MAX_ANSWER_BYTES);
    const ran = answers.filter((a) => a.result !== undefined).length;
    expect(ran).toBe(5);
    // The sixth ran but did not fit; the rest were never run.
    expect(r.calls).toHaveLength(6);
    expect(answers[5]?.error?.message).toMatch(/^Answer too large/);
    for (const a of answers.slice(6)) expect(a.error).toMatchObject({ code: -32000, message: expect.stringMatching(/^Not run/) });
  });

  it('counts every message of a batch, tools/list and unknown methods included', async () => {
    const r = recorder();
    const batch = [
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', id: 2, method: 'no/such' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 3, method: 'ping' },
    ];
    await answerMcp(batch, { accept: ACCEPT }, { caller, requestId: 'r', log: noLog, pipeline: r.pipeline, registry, confirmation: null });
    expect(r.metered()).toBe(4);
  });
});

describe('how the confirmation of an execution was obtained', () => {
  const writer: Caller = { ...caller, scopes: new Set(['read', 'write']) };
  const modernCall = (capabilities: Record<string, unknown>) => ({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: {
      name: 'place_order',
      arguments: { confirm_token: 't' },
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': capabilities,
      },
    },
  });
  const headers = { accept: ACCEPT, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'place_order' };
  const confirming = (kind: 'confirmed' | 'proceed', seen: boolean[]) => ({
    asks: () => true,
    step: async (_op: Operation, _a: unknown, _p: unknown, _c: Invocation, elicitation: boolean) => {
      seen.push(elicitation);
      return { kind } as const;
    },
  });

  it('is client_elicitation when the user said yes through the client, and unset otherwise', async () => {
    for (const [kind, expected] of [
      ['confirmed', 'client_elicitation'],
      ['proceed', undefined],
    ] as const) {
      const r = recorder();
      const seen: boolean[] = [];
      await answerMcp(modernCall({ elicitation: {} }), headers, {
        caller: writer,
        requestId: 'r',
        log: noLog,
        pipeline: r.pipeline,
        registry,
        confirmation: confirming(kind, seen),
      });
      expect(r.calls[0]?.call.confirmation).toBe(expected);
      expect(seen).toEqual([true]);
    }
  });

  it('tells the confirmation whether the client declared form elicitation', async () => {
    const seen: boolean[] = [];
    for (const capabilities of [{}, { elicitation: { url: {} } }, { elicitation: { form: {} } }]) {
      await answerMcp(modernCall(capabilities), headers, {
        caller: writer,
        requestId: 'r',
        log: noLog,
        pipeline: recorder().pipeline,
        registry,
        confirmation: confirming('proceed', seen),
      });
    }
    expect(seen).toEqual([false, false, true]);
  });

  it('is never asked on a 2025 revision', async () => {
    const seen: boolean[] = [];
    const r = recorder();
    await answerMcp(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'place_order', arguments: { confirm_token: 't' } } },
      { accept: ACCEPT },
      { caller: writer, requestId: 'r', log: noLog, pipeline: r.pipeline, registry, confirmation: confirming('confirmed', seen) },
    );
    expect(seen).toEqual([]);
    expect(r.calls[0]?.call.confirmation).toBeUndefined();
  });
});
