/**
 * The `instructions` of `initialize` (src/surfaces/mcp/instructions.ts) are what an agent trusts
 * about every result, so they are held to real results here (docs/mcp.md): which ids are UUIDs,
 * and which fields an output schema lists can be absent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, MARKETS, OPINIONS, POLLS, startStack, type Stack } from '../../helpers/stack.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const BOOSTED_OPTION = '00000000-0000-4000-8001-0000000b0005';

let stack: Stack;
let instructions: string;
/** Output schemas of every tool, by name, as a write key's tools/list gives them. */
let schemas: Map<string, Schema>;

interface Schema {
  properties?: Record<string, Schema>;
  items?: Schema;
}

async function rpc(key: string, method: string, params?: unknown): Promise<any> {
  const r = await stack.request('POST', '/mcp', {
    key,
    raw: JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(params === undefined ? {} : { params }) }),
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  });
  return r.body.result;
}

/** The structured result of a tool called with alice's write key. */
async function call(name: string, args: Record<string, unknown>): Promise<any> {
  const result = await rpc(KEYS.aliceWrite, 'tools/call', { name, arguments: args });
  expect(result.isError, JSON.stringify(result)).toBeFalsy();
  return result.structuredContent;
}

beforeAll(async () => {
  stack = await startStack({ env: { RATE_LIMITS: 'off' } });
  const init = await rpc(KEYS.aliceRead, 'initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 't', version: '1' },
  });
  instructions = init.instructions;
  const { tools } = await rpc(KEYS.aliceWrite, 'tools/list');
  schemas = new Map(tools.map((t: { name: string; outputSchema: Schema }) => [t.name, t.outputSchema]));
});
afterAll(async () => stack.close());

describe('ids', () => {
  /** The instructions' sentence on ids, split where it names the UUID kinds from the others. */
  function idSentence(): { uuids: string; others: string } {
    const line = instructions.split('\n').find((l) => /\bIds\b/.test(l) && l.includes('UUID')) ?? '';
    const sentence = line.slice(line.indexOf('Ids'));
    const [uuids = '', others = ''] = sentence.split(/are UUIDs[;,]?/);
    return { uuids, others };
  }

  it('say which ids are UUIDs and which are not, as real results have them', async () => {
    const prediction = await call('get_topic', { topic_id: MARKETS.aliceOpen });
    const poll = await call('get_topic', { topic_id: POLLS.aliceVoted });
    const preview = await call('preview_order', { topic_id: MARKETS.boosted, option_id: BOOSTED_OPTION, amount_coins: 25 });
    const order = await call('place_order', { confirm_token: preview.confirm_token });
    const kinds: Record<string, string[]> = {
      topic: [prediction.id, poll.id],
      user: [prediction.creator.id],
      category: (await call('list_topic_categories', {})).data.map((c: { id: string }) => c.id),
      predictions: [
        ...prediction.options.map((o: { id: string }) => o.id),
        ...(await call('list_topic_opinions', { topic_id: MARKETS.aliceOpen })).data.map((o: { id: string }) => o.id),
      ],
      polls: [
        ...poll.options.map((o: { id: string }) => o.id),
        ...(await call('list_topic_opinions', { topic_id: POLLS.aliceVoted })).data.map((o: { id: string }) => o.id),
      ],
      position: (await call('list_my_positions', {})).data.map((p: { id: string }) => p.id),
      order: [order.id],
      back: (await call('list_my_backed_opinions', {})).data.map((b: { id: string }) => b.id),
      ledger: [
        ...(await call('list_my_coin_ledger', {})).data.map((e: { id: string }) => e.id),
        ...(await call('list_my_ruby_ledger', {})).data.map((e: { id: string }) => e.id),
      ],
    };
    const { uuids, others } = idSentence();
    for (const [kind, ids] of Object.entries(kinds)) {
      expect(ids.length, kind).toBeGreaterThan(0);
      const areUuids = ids.every((id) => UUID.test(id));
      if (!areUuids)
        expect(
          ids.some((id) => UUID.test(id)),
          `${kind}: all UUIDs or none`,
        ).toBe(false);
      expect({ kind, saidUuid: uuids.includes(kind), saidNot: others.includes(kind) }).toEqual({
        kind,
        saidUuid: areUuids,
        saidNot: !areUuids,
      });
    }
  });
});

describe('fields', () => {
  /** Names of the fields `schema` lists that `value` leaves out, at any depth of objects and arrays. */
  function absent(schema: Schema | undefined, value: unknown, out = new Set<string>()): Set<string> {
    if (schema === undefined || value === null || typeof value !== 'object') return out;
    if (Array.isArray(value)) {
      for (const item of value) absent(schema.items, item, out);
      return out;
    }
    for (const [name, sub] of Object.entries(schema.properties ?? {})) {
      if (!(name in value)) out.add(name);
      else absent(sub, (value as Record<string, unknown>)[name], out);
    }
    return out;
  }

  /** The id of the first option of a topic. */
  const firstOption = async (topic_id: string) => (await call('get_topic', { topic_id })).options[0].id as string;
  const cases: [string, () => Promise<Record<string, unknown>>][] = [
    ['get_topic', async () => ({ topic_id: MARKETS.uneven })], // open, never boosted
    ['get_topic', async () => ({ topic_id: MARKETS.aliceWon })], // settled
    ['get_topic', async () => ({ topic_id: MARKETS.boosted })],
    ['get_topic', async () => ({ topic_id: POLLS.aliceVoted })],
    ['get_topic', async () => ({ topic_id: POLLS.settled })],
    ['list_topics', async () => ({ type: 'prediction', limit: 50 })],
    ['list_topics', async () => ({ type: 'poll', limit: 50 })],
    ['list_my_watchlist', async () => ({})],
    ['list_my_positions', async () => ({ limit: 100 })],
    [
      'preview_order',
      async () => ({ topic_id: MARKETS.multiOutcome, option_id: await firstOption(MARKETS.multiOutcome), amount_coins: 10 }),
    ],
    ['preview_order', async () => ({ topic_id: MARKETS.uneven, option_id: await firstOption(MARKETS.uneven), amount_coins: 999999 })],
    ['preview_opinion', async () => ({ topic_id: MARKETS.aliceOpen, content: 'A short opinion.' })],
    ['preview_opinion', async () => ({ topic_id: MARKETS.uneven, content: 'A short opinion.' })],
    ['preview_back', async () => ({ opinion_id: OPINIONS.frankBackable, topic_id: MARKETS.backable })],
    ['preview_back', async () => ({ opinion_id: OPINIONS.erinFull, topic_id: MARKETS.fullRelay })],
  ];

  it.each(cases)('name every listed field a real %s result leaves out (case %#)', async (name, args) => {
    const result = await rpc(KEYS.aliceWrite, 'tools/call', { name, arguments: await args() });
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    const missing = [...absent(schemas.get(name), result.structuredContent)];
    expect(missing.filter((field) => !instructions.includes(field))).toEqual([]);
  });

  it('do not claim that every listed field is present', () => {
    expect(instructions).not.toMatch(/present unless the tool says/);
  });
});
