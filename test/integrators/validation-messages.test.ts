/**
 * What an integrator reads when a request is wrong: a sentence naming the field and what it
 * accepts, the same on REST and MCP, and `details.field` for code. Also SPEC 4.2 rule 7:
 * `type=all` search ignores `cursor` and `limit`, whatever their value.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TopicList } from '../../src/contract/index.ts';
import { mcpClient } from '../helpers/mcp.ts';
import { KEYS, MARKETS, startStack, type Stack } from '../helpers/stack.ts';

const API = '/open/v1';
const KEY = KEYS.aliceWrite;
let stack: Stack;
let mcp: Client;

beforeAll(async () => {
  stack = await startStack({ env: { RATE_LIMITS: 'off' } });
  mcp = await mcpClient(stack.url, KEY);
});
afterAll(async () => {
  await mcp?.close();
  await stack?.close();
});

async function restError(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ message: string; field: unknown }> {
  const res = method === 'GET' ? await stack.get(path, KEY) : await stack.post(path, KEY, body);
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('INVALID_ARGUMENT');
  return { message: res.body.error.message, field: res.body.error.details?.field };
}

describe('validation messages name the field and what it accepts', () => {
  const boosted = `${API}/topics/${MARKETS.boosted}/order-preview`;
  const option = '00000000-0000-4000-8001-0000000b0005';

  it.each([
    ['GET', `${API}/search`, undefined, 'q', 'q is required.'],
    ['GET', `${API}/search?q=%20%20`, undefined, 'q', 'q must be a string of 1 to 100 characters.'],
    ['GET', `${API}/topics?limit=0`, undefined, 'limit', 'limit must be an integer from 1 to 100.'],
    ['GET', `${API}/me/positions?limit=ten`, undefined, 'limit', 'limit must be an integer from 1 to 100.'],
    ['GET', `${API}/topics?type=market`, undefined, 'type', 'type must be one of: prediction, poll.'],
    ['GET', `${API}/topics?sort=hot`, undefined, 'sort', 'sort must be one of: trending, newest, ending_soon.'],
    ['GET', `${API}/topics?category_id=42`, undefined, 'category_id', 'category_id must be a UUID.'],
    ['POST', boosted, { amount_coins: 10 }, 'option_id', 'option_id is required.'],
    ['POST', boosted, { option_id: option, amount_coins: '10' }, 'amount_coins', 'amount_coins must be an integer from 1 to 1000000000.'],
    // A fraction is judged as written (src/contract/writes.ts, exactAmountCoins): refused like any non-integer.
    ['POST', boosted, { option_id: option, amount_coins: 1.5 }, 'amount_coins', 'amount_coins must be an integer from 1 to 1000000000.'],
    ['POST', `${API}/orders`, {}, 'confirm_token', 'confirm_token is required.'],
    [
      'POST',
      `${API}/orders`,
      { confirm_token: 'x', stake: 5 },
      'stake',
      'stake is not a known parameter; the known ones are: confirm_token.',
    ],
    [
      'POST',
      `${API}/topics/${MARKETS.aliceOpen}/opinion-preview`,
      { content: 'hi', reply_to_opinion_id: 'no' },
      'reply_to_opinion_id',
      'reply_to_opinion_id must be a UUID or null.',
    ],
  ] as const)('%s %s', async (method, path, body, field, message) => {
    expect(await restError(method, path, body)).toEqual({ message, field });
  });

  it("no message is zod's own wording", async () => {
    for (const path of [`${API}/search`, `${API}/topics?limit=500`, `${API}/topics?status=resolving`]) {
      const { message } = await restError('GET', path);
      expect(message).not.toMatch(/Invalid input|Too small|Too big|expected \w+, received/);
    }
  });

  it('MCP tools say the same, as a tool error with the envelope', async () => {
    const result = await mcp.callTool({ name: 'list_topics', arguments: { limit: 0 } });
    expect(result.isError).toBe(true);
    const text = (result.content as { type: string; text: string }[])[0]?.text ?? '';
    expect(JSON.parse(text)).toEqual({
      error: { code: 'INVALID_ARGUMENT', message: 'limit must be an integer from 1 to 100.', details: { field: 'limit' } },
    });
  });
});

describe('search with type=all ignores cursor and limit (SPEC 4.2 rule 7)', () => {
  it('an out-of-range or malformed limit or cursor changes nothing', async () => {
    const preview = await stack.get(`${API}/search?q=will`, KEY);
    expect(preview.status).toBe(200);
    TopicList.parse(preview.body);
    for (const extra of ['limit=500', 'limit=0', 'limit=abc', 'cursor=not-a-cursor', 'type=all&limit=500&cursor=x']) {
      const res = await stack.get(`${API}/search?q=will&${extra}`, KEY);
      expect(res.status, extra).toBe(200);
      expect(res.body).toEqual(preview.body);
    }
  });

  it('a paginated kind still refuses a bad limit, over MCP too', async () => {
    expect(await restError('GET', `${API}/search?q=will&type=poll&limit=500`)).toEqual({
      message: 'limit must be an integer from 1 to 100.',
      field: 'limit',
    });
    const ok = await mcp.callTool({ name: 'search_topics', arguments: { q: 'will', limit: 500 } });
    expect(ok.isError).toBeFalsy();
    const refused = await mcp.callTool({ name: 'search_topics', arguments: { q: 'will', type: 'prediction', limit: 500 } });
    expect(refused.isError).toBe(true);
  });
});
