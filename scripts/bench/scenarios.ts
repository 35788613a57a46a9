/**
 * What the benchmark drives: each scenario is one unit of work as a client sees it (one read,
 * one MCP tool call, or a preview followed by its execution), sent to the gateway, and, where
 * one exists, the backend request it stands for, sent through the bare proxy as the floor.
 */
import { KEYS, MARKETS, USERS } from '../../sandbox/ids.ts';
import type { Step } from './load.ts';

export const SERVICE_TOKEN = 'bench-service-token';

export interface Scenario {
  name: string;
  /** Requests per unit of work (a preview + execution pair is two). */
  requestsPerUnit: number;
  gateway: Step[];
  /** The same work through the bare proxy: the backend call(s) the gateway makes for it. */
  proxy?: Step[];
  /** An MCP scenario names the REST scenario doing the same read, for the MCP/REST ratios. */
  restTwin?: string;
  /** A scenario whose proxy figures it shares (MCP reads forward to the same backend call). */
  proxyOf?: string;
}

const read = { authorization: `Bearer ${KEYS.aliceRead}` };
const write = { authorization: `Bearer ${KEYS.aliceWrite}`, 'content-type': 'application/json' };
/** What the gateway sends the backend for an owner read; the proxy's client sends it itself. */
const publicBackend = { 'x-service-token': SERVICE_TOKEN, accept: 'application/json' };
const backend = { ...publicBackend, 'x-acting-user': USERS.alice };
const mcpHeaders = {
  ...read,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18',
};

/** One JSON-RPC message POSTed to /mcp with alice's read key, as an MCP client sends it. */
export function mcpMessage(message: object): Step[] {
  return [{ method: 'POST', path: '/mcp', headers: mcpHeaders, body: JSON.stringify(message) }];
}

function toolCall(name: string, args: Record<string, unknown>): Step[] {
  return mcpMessage({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
}

/**
 * The same call on the 2026-07-28 revision, as its clients send it: the `_meta` envelope in the
 * body and the `Mcp-Method` / `Mcp-Name` headers that must agree with it.
 */
function modernToolCall(name: string, args: Record<string, unknown>): Step[] {
  const _meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const headers = { ...mcpHeaders, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name };
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args, _meta } });
  return [{ method: 'POST', path: '/mcp', headers, body }];
}

/**
 * The topic the reads read is not the one the write pair publishes opinions on: the backend
 * counts a topic's opinions for its detail, so a read topic that gains opinions all through the
 * run would get slower for the proxy (which asks the backend every time) round after round.
 */
const topic = MARKETS.boosted;
/** Opinions need a position on the topic: alice holds one here. */
const opinionTopic = MARKETS.aliceOpen;

export const SCENARIOS: readonly Scenario[] = [
  {
    name: 'topic',
    requestsPerUnit: 1,
    gateway: [{ method: 'GET', path: `/open/v1/topics/${topic}`, headers: read }],
    proxy: [{ method: 'GET', path: `/internal/prediction/markets/${topic}`, headers: publicBackend }],
  },
  {
    name: 'me',
    requestsPerUnit: 1,
    gateway: [{ method: 'GET', path: '/open/v1/me', headers: read }],
    proxy: [{ method: 'GET', path: `/internal/users/${USERS.alice}/profile`, headers: backend }],
  },
  {
    name: 'positions',
    requestsPerUnit: 1,
    gateway: [{ method: 'GET', path: '/open/v1/me/positions', headers: read }],
    proxy: [{ method: 'GET', path: `/internal/prediction/users/${USERS.alice}/holdings?offset=0&limit=20`, headers: backend }],
  },
  { name: 'mcp get_topic', requestsPerUnit: 1, gateway: toolCall('get_topic', { topic_id: topic }), restTwin: 'topic', proxyOf: 'topic' },
  { name: 'mcp get_my_profile', requestsPerUnit: 1, gateway: toolCall('get_my_profile', {}), restTwin: 'me', proxyOf: 'me' },
  {
    name: 'mcp get_topic 2026-07-28',
    requestsPerUnit: 1,
    gateway: modernToolCall('get_topic', { topic_id: topic }),
    restTwin: 'topic',
    proxyOf: 'topic',
  },
  {
    name: 'mcp get_my_profile 2026-07-28',
    requestsPerUnit: 1,
    gateway: modernToolCall('get_my_profile', {}),
    restTwin: 'me',
    proxyOf: 'me',
  },
  {
    name: 'mcp list_my_positions',
    requestsPerUnit: 1,
    gateway: toolCall('list_my_positions', {}),
    restTwin: 'positions',
    proxyOf: 'positions',
  },
  {
    // Opinions are the write that can repeat: one order per topic would stop the run at once.
    name: 'opinion preview+publish',
    requestsPerUnit: 2,
    gateway: [
      {
        method: 'POST',
        path: `/open/v1/topics/${opinionTopic}/opinion-preview`,
        headers: write,
        body: JSON.stringify({ content: 'Measured, not guessed.' }),
        onResponse: (status, body, context) => {
          context['token'] = status === 200 ? (JSON.parse(body) as { confirm_token?: string }).confirm_token : undefined;
        },
      },
      {
        method: 'POST',
        path: '/open/v1/opinions',
        headers: write,
        setupRequest: (req, context) => ({ ...req, body: JSON.stringify({ confirm_token: context['token'] ?? '' }) }),
      },
    ],
  },
];

/** A failed MCP call still answers HTTP 200: the result says so. */
export function mcpFailed(body: string): boolean {
  return body.includes('"isError":true') || body.includes('"error":{');
}
