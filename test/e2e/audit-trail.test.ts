/**
 * The audit trail end to end (docs/audit.md): the sandbox behind a gateway whose AUDIT_LOG is a
 * file, over real HTTP and MCP. Every execution attempt on both surfaces leaves exactly one
 * record with the right outcome (executed, replayed, refused with its code, failed), the trace id
 * the caller sent, and the backend's reference; a backend that performed an order whose answer
 * was lost is still in the trail; kill-switch changes are recorded; GET /audit on the admin port
 * answers them. Every record read is validated against docs/audit-record.schema.json.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAdminApp } from '../../src/admin/app.ts';
import type { AuditRecord } from '../../src/audit/record.ts';
import { BackPreview, OpinionPreview, Order, OrderPreview } from '../../src/contract/index.ts';
import { genericMarketId, outcomeId } from '../../sandbox/ids.ts';
import { recordsInFile, validRecord } from '../helpers/audit.ts';
import { mcpClient, mcpModernClient } from '../helpers/mcp.ts';
import { KEYS, MARKETS, OPINIONS, type Stack, USERS } from '../helpers/stack.ts';
import { decodeToken, expectAuditOk, newWriteKey, V1, valid, writeStack } from '../helpers/writes.ts';

const ADMIN_TOKEN = 'audit-admin-token-0123456789';
const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const traceparent = (id: string) => `00-${id}-00f067aa0ba902b7-01`;

let stack: Stack;
let admin: FastifyInstance;
let file: string;
beforeAll(async () => {
  file = join(mkdtempSync(join(tmpdir(), 'openpm-audit-')), 'audit.jsonl');
  stack = await writeStack({ env: { AUDIT_LOG: file } });
  admin = await buildAdminApp(stack.app.services, { ADMIN_HOST: '127.0.0.1', ADMIN_TOKEN });
});
afterAll(async () => {
  await expectAuditOk(stack);
  await admin.close();
  await stack.close();
});

/** The records of one confirm token, in the order written. */
const recordsOf = (token: string): AuditRecord[] => {
  const jti = decodeToken(token).claims.jti as string;
  return recordsInFile(file).filter((r) => r.confirm_token_id === jti);
};
const byRequest = (requestId: string | null): AuditRecord[] => recordsInFile(file).filter((r) => r.request_id === requestId);

async function orderToken(topicIndex: number, amount: number, key: string = KEYS.aliceWrite): Promise<string> {
  const topic = genericMarketId(topicIndex);
  const r = await stack.post(`${V1}/topics/${topic}/order-preview`, key, { option_id: outcomeId(topic, 1), amount_coins: amount });
  const p = valid(OrderPreview, r.body);
  expect(p.can_place, JSON.stringify(r.body)).toBe(true);
  return p.confirm_token as string;
}
const place = (token: string, key: string = KEYS.aliceWrite, headers?: Record<string, string>) =>
  stack.post(`${V1}/orders`, key, { confirm_token: token }, headers);
const mcpText = (result: Record<string, unknown>) => JSON.parse((result['content'] as { text: string }[])[0]?.text ?? '');

describe('REST', () => {
  it('an order: executed, then replayed, each naming the key, the user, the targets, the stake and the order', async () => {
    const token = await orderToken(20, 25);
    const first = await place(token, KEYS.aliceWrite, { traceparent: traceparent(TRACE) });
    expect(first.status).toBe(201);
    const order = valid(Order, first.body);
    const again = await place(token);
    expect(again.status).toBe(200);
    const records = recordsOf(token);
    expect(records.map((r) => r.outcome)).toEqual(['executed', 'replayed']);
    expect(records[0]).toMatchObject({
      request_id: first.headers.get('x-request-id'),
      trace_id: TRACE,
      surface: 'rest',
      key_id: 'key_alice_write',
      user_id: USERS.alice,
      action: 'place_order',
      targets: { topic_id: genericMarketId(20), option_id: outcomeId(genericMarketId(20), 1) },
      coins: { stake: '25.0000' },
      confirmation: 'token',
      error_code: null,
      backend_ref: order.id,
    });
    expect(records[1]).toMatchObject({ request_id: again.headers.get('x-request-id'), trace_id: null, backend_ref: order.id });
    // Never the token or the key.
    const text = JSON.stringify(records);
    expect(text).not.toContain(token);
    expect(text).not.toContain(KEYS.aliceWrite);
  });

  it('an opinion: executed, then refused CONFIRM_TOKEN_USED on the second presentation', async () => {
    const content = 'Audited opinion.';
    const p = valid(
      OpinionPreview,
      (await stack.post(`${V1}/topics/${MARKETS.aliceOpen}/opinion-preview`, KEYS.aliceWrite, { content })).body,
    );
    expect(p.can_publish).toBe(true);
    const token = p.confirm_token as string;
    const published = await stack.post(`${V1}/opinions`, KEYS.aliceWrite, { confirm_token: token });
    expect(published.status).toBe(201);
    expect((await stack.post(`${V1}/opinions`, KEYS.aliceWrite, { confirm_token: token })).status).toBe(409);
    const records = recordsOf(token);
    expect(records.map((r) => [r.outcome, r.error_code])).toEqual([
      ['executed', null],
      ['refused', 'CONFIRM_TOKEN_USED'],
    ]);
    expect(records[0]).toMatchObject({
      action: 'publish_opinion',
      coins: { fee: p.summary.fee_coins },
      backend_ref: published.body.id,
    });
    // The side alice holds is the opinion's.
    expect(records[0]?.targets).toEqual({ topic_id: MARKETS.aliceOpen, option_id: outcomeId(MARKETS.aliceOpen, 1) });

    const reply = valid(
      OpinionPreview,
      (
        await stack.post(`${V1}/topics/${MARKETS.aliceOpen}/opinion-preview`, KEYS.aliceWrite, {
          content: 'Audited reply.',
          reply_to_opinion_id: OPINIONS.graceOnAliceOpen,
        })
      ).body,
    );
    const replyToken = reply.confirm_token as string;
    expect((await stack.post(`${V1}/opinions`, KEYS.aliceWrite, { confirm_token: replyToken })).status).toBe(201);
    expect(recordsOf(replyToken)[0]?.targets).toEqual({
      topic_id: MARKETS.aliceOpen,
      option_id: outcomeId(MARKETS.aliceOpen, 1),
      reply_to_opinion_id: OPINIONS.graceOnAliceOpen,
    });
    expect(JSON.stringify(records)).not.toContain(content);
  });

  it('a back: executed with the opinion, the seat price and the back', async () => {
    const p = valid(
      BackPreview,
      (await stack.post(`${V1}/opinions/${OPINIONS.heidiBoosted}/back-preview`, KEYS.aliceWrite, { topic_id: MARKETS.boosted })).body,
    );
    expect(p.can_back).toBe(true);
    const backed = await stack.post(`${V1}/backs`, KEYS.aliceWrite, { confirm_token: p.confirm_token });
    expect(backed.status).toBe(201);
    expect(recordsOf(p.confirm_token as string)).toEqual([
      expect.objectContaining({
        action: 'back_opinion',
        outcome: 'executed',
        targets: { topic_id: MARKETS.boosted, opinion_id: OPINIONS.heidiBoosted },
        coins: { price: p.summary.price_coins },
        backend_ref: backed.body.id,
      }),
    ]);
  });

  it('refusals: a balance spent after the preview, a token that does not verify, the writes kill switch', async () => {
    const bob = await newWriteKey(stack, USERS.bob);
    const a = await orderToken(21, 5, bob);
    const b = await orderToken(23, 5, bob);
    expect((await place(a, bob)).status).toBe(201);
    expect((await place(b, bob)).status).toBe(422);
    expect(recordsOf(b)).toEqual([
      expect.objectContaining({
        outcome: 'refused',
        error_code: 'INSUFFICIENT_BALANCE',
        user_id: USERS.bob,
        targets: { topic_id: genericMarketId(23), option_id: outcomeId(genericMarketId(23), 1) },
        coins: { stake: '5.0000' },
        backend_ref: null,
      }),
    ]);

    const forged = await place('ct1.x.y.z');
    expect(forged.status).toBe(400);
    expect(byRequest(forged.headers.get('x-request-id'))).toEqual([
      expect.objectContaining({ outcome: 'refused', error_code: 'CONFIRM_TOKEN_INVALID', confirm_token_id: null, targets: {} }),
    ]);

    const token = await orderToken(19, 10);
    await stack.app.services.killSwitch.set('writes', 'audit test', 'drill');
    try {
      const refused = await place(token);
      expect(refused.status).toBe(503);
      expect(byRequest(refused.headers.get('x-request-id'))).toEqual([
        expect.objectContaining({ action: 'place_order', outcome: 'refused', error_code: 'SERVICE_DISABLED', key_id: 'key_alice_write' }),
      ]);
    } finally {
      await stack.app.services.killSwitch.set('off', 'audit test', 'drill over');
    }
  });

  it('a backend failure is failed; when the backend had performed it, the retry records the replay and the order', async () => {
    const lost = await orderToken(24, 10);
    await stack.admin('POST', '/faults', {
      method: 'POST',
      pathPrefix: '/internal/prediction/orders',
      status: 500,
      phase: 'after',
      times: 1,
    });
    expect((await place(lost)).status).toBe(500);
    const retry = await place(lost);
    expect(retry.status).toBe(200);
    expect(recordsOf(lost).map((r) => [r.outcome, r.error_code, r.backend_ref])).toEqual([
      ['failed', 'INTERNAL', null],
      ['replayed', null, retry.body.id],
    ]);

    const never = await orderToken(16, 10);
    await stack.admin('POST', '/faults', { method: 'POST', pathPrefix: '/internal/prediction/orders', status: 503, times: 1 });
    const failed = await place(never);
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(recordsOf(never)).toEqual([
      expect.objectContaining({ outcome: 'failed', error_code: failed.body.error.code, backend_ref: null }),
    ]);
  });
});

describe('MCP', () => {
  it('place_order over the 2025 handshake: confirmed by the token alone, with the trace id of _meta', async () => {
    const token = await orderToken(12, 12);
    const client = await mcpClient(stack.url, KEYS.aliceWrite);
    const trace = 'aaaaaaaaaaaaaaaabbbbbbbbbbbbbbbb';
    const result = await client.callTool({
      name: 'place_order',
      arguments: { confirm_token: token },
      _meta: { traceparent: traceparent(trace) },
    });
    expect(result.isError).toBeFalsy();
    const again = await client.callTool({ name: 'place_order', arguments: { confirm_token: token } });
    expect((again.structuredContent as { replayed: boolean }).replayed).toBe(true);
    await client.close();
    const records = recordsOf(token);
    expect(records.map((r) => [r.surface, r.outcome, r.confirmation, r.trace_id])).toEqual([
      ['mcp', 'executed', 'token', trace],
      ['mcp', 'replayed', 'token', null],
    ]);
    expect(records[0]?.backend_ref).toBe((result.structuredContent as { id: string }).id);
  });

  it('place_order confirmed by the user through the client (2026-07-28): client_elicitation', async () => {
    const token = await orderToken(15, 13);
    const client = await mcpModernClient(stack.url, KEYS.aliceWrite, { elicit: () => ({ action: 'accept', content: { confirm: true } }) });
    const result = await client.callTool({ name: 'place_order', arguments: { confirm_token: token } });
    expect(result.isError).toBeFalsy();
    await client.close();
    expect(recordsOf(token)).toEqual([
      expect.objectContaining({ surface: 'mcp', outcome: 'executed', confirmation: 'client_elicitation' }),
    ]);
  });

  it('a refusal over MCP is recorded like one over REST, with the trace id of the HTTP header when _meta has none', async () => {
    const trace = 'ccccccccccccccccdddddddddddddddd';
    const client = new Client({ name: 'audit-tests', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', stack.url), {
        requestInit: { headers: { Authorization: `Bearer ${KEYS.aliceWrite}`, traceparent: traceparent(trace) } },
      }),
    );
    const result = await client.callTool({ name: 'back_opinion', arguments: { confirm_token: 'ct1.x.y.z' } });
    expect(mcpText(result)).toMatchObject({ error: { code: 'CONFIRM_TOKEN_INVALID' } });
    await client.close();
    const last = recordsInFile(file).at(-1);
    expect(last).toMatchObject({
      surface: 'mcp',
      action: 'back_opinion',
      outcome: 'refused',
      error_code: 'CONFIRM_TOKEN_INVALID',
      trace_id: trace,
    });
  });
});

describe('kill-switch changes and the admin route', () => {
  const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };

  it('each authorised change is one record: executed, or refused with its code', async () => {
    const on = await admin.inject({
      method: 'PUT',
      url: '/kill-switch',
      headers: auth,
      payload: { mode: 'writes', reason: 'INC-9', by: 'oncall' },
    });
    expect(on.statusCode).toBe(200);
    const off = await admin.inject({
      method: 'PUT',
      url: '/kill-switch',
      headers: auth,
      payload: { mode: 'off', reason: 'over', by: 'oncall' },
    });
    expect(off.statusCode).toBe(200);
    const bad = await admin.inject({ method: 'PUT', url: '/kill-switch', headers: auth, payload: { mode: 'sideways', reason: 'x' } });
    expect(bad.statusCode).toBe(400);
    // Not authorised: no change was attempted, so nothing is recorded.
    expect((await admin.inject({ method: 'PUT', url: '/kill-switch', payload: { mode: 'all', reason: 'x' } })).statusCode).toBe(401);
    const records = recordsInFile(file).filter((r) => r.action === 'kill_switch');
    expect(records.map((r) => [r.outcome, r.error_code, r.kill_switch?.mode, r.kill_switch?.by])).toEqual([
      ['executed', null, 'writes', 'oncall'],
      ['executed', null, 'off', 'oncall'],
      ['refused', 'INVALID_ARGUMENT', null, null],
    ]);
    expect(records[0]).toMatchObject({ surface: 'admin', request_id: on.headers['x-request-id'], kill_switch: { reason: 'INC-9' } });
  });

  it('GET /audit answers the records newest first, filtered, behind the admin token', async () => {
    expect((await admin.inject({ method: 'GET', url: '/audit' })).statusCode).toBe(401);
    const all = await admin.inject({ method: 'GET', url: '/audit?limit=1000', headers: auth });
    expect(all.statusCode).toBe(200);
    const body = all.json() as { source: string; records: AuditRecord[] };
    expect(body.source).toBe('memory');
    for (const r of body.records) validRecord(r);
    // The same records as the file, newest first.
    expect(body.records.map((r) => r.request_id)).toEqual(
      recordsInFile(file)
        .map((r) => r.request_id)
        .reverse(),
    );
    const bob = (await admin.inject({ method: 'GET', url: `/audit?user_id=${USERS.bob}`, headers: auth })).json() as {
      records: AuditRecord[];
    };
    expect(bob.records.length).toBeGreaterThan(0);
    expect(bob.records.every((r) => r.user_id === USERS.bob)).toBe(true);
    const two = (
      await admin.inject({ method: 'GET', url: '/audit?key_id=key_alice_write&action=place_order&limit=2', headers: auth })
    ).json() as {
      records: AuditRecord[];
    };
    expect(two.records).toHaveLength(2);
    expect(two.records.every((r) => r.key_id === 'key_alice_write' && r.action === 'place_order')).toBe(true);
    expect((await admin.inject({ method: 'GET', url: '/audit?limit=0', headers: auth })).statusCode).toBe(400);
    expect((await admin.inject({ method: 'GET', url: '/audit?who=me', headers: auth })).statusCode).toBe(400);
  });

  it('the metrics count the records by action and outcome', async () => {
    const text = await (await admin.inject({ method: 'GET', url: '/metrics' })).body;
    const executed = /openpm_audit_records_total\{action="place_order",outcome="executed"\} (\d+)/.exec(text)?.[1];
    const fromFile = recordsInFile(file).filter((r) => r.action === 'place_order' && r.outcome === 'executed').length;
    expect(Number(executed)).toBe(fromFile);
    expect(text).toMatch(/openpm_audit_stream_failures_total 0/);
  });
});
