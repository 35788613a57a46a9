/**
 * What the benchmark drives. A scenario is one request as a client sends it to a gateway, and
 * its floor is the backend request it stands for, sent through the bare proxy: the gateway's
 * figures are read as ratios to its floor's in the same round.
 */
import { KEYS, MARKETS, USERS } from '../../sandbox/ids.ts';
import type { Step } from './load.ts';

export const SERVICE_TOKEN = 'bench-service-token';

/**
 * Which gateway serves a scenario: in-memory, Redis with limits on, or in-memory with tracing on,
 * every request sampled (`tracing`) or one in ten (`sampled`: what a production setting looks like).
 */
export type GatewayKind = 'memory' | 'redis' | 'tracing' | 'sampled';

export type FloorName = 'owner-read' | 'owner-list' | 'public-read';

export interface Scenario {
  name: string;
  gateway: GatewayKind;
  steps: Step[];
  floor: FloorName;
  /** The scenario whose gateway figures this one is also compared with (what Redis, MCP or tracing add). */
  twin?: string;
  /** An MCP answer is HTTP 200 even when the call failed: its body says so. */
  mcp?: boolean;
}

const read = { authorization: `Bearer ${KEYS.aliceRead}` };
/** What the gateway sends the backend; the proxy's client sends it itself. */
const publicBackend = { 'x-service-token': SERVICE_TOKEN, accept: 'application/json' };
const ownerBackend = { ...publicBackend, 'x-acting-user': USERS.alice };
/** A topic no write touches, so that its detail costs the backend the same all run long. */
const topic = MARKETS.boosted;

export const FLOORS: Readonly<Record<FloorName, Step[]>> = {
  'owner-read': [{ method: 'GET', path: `/internal/users/${USERS.alice}/profile`, headers: ownerBackend }],
  'owner-list': [{ method: 'GET', path: `/internal/prediction/users/${USERS.alice}/holdings?offset=0&limit=20`, headers: ownerBackend }],
  'public-read': [{ method: 'GET', path: `/internal/prediction/markets/${topic}`, headers: publicBackend }],
};

const ownerRead: Step[] = [{ method: 'GET', path: '/open/v1/me', headers: read }];

/** A `tools/call` POSTed to /mcp with alice's read key, as an MCP client sends it. */
function toolCall(name: string, args: Record<string, unknown>): Step[] {
  const headers = {
    ...read,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-06-18',
  };
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
  return [{ method: 'POST', path: '/mcp', headers, body }];
}

export const SCENARIOS: readonly Scenario[] = [
  { name: 'owner-read', gateway: 'memory', steps: ownerRead, floor: 'owner-read' },
  { name: 'owner-read-redis', gateway: 'redis', steps: ownerRead, floor: 'owner-read', twin: 'owner-read' },
  { name: 'mcp-owner-read', gateway: 'memory', steps: toolCall('get_my_profile', {}), floor: 'owner-read', twin: 'owner-read', mcp: true },
  /** A list: amounts and timestamps mapped per item. */
  { name: 'owner-list', gateway: 'memory', steps: [{ method: 'GET', path: '/open/v1/me/positions', headers: read }], floor: 'owner-list' },
  {
    name: 'public-read',
    gateway: 'memory',
    steps: [{ method: 'GET', path: `/open/v1/topics/${topic}`, headers: read }],
    floor: 'public-read',
  },
  { name: 'owner-read-tracing', gateway: 'tracing', steps: ownerRead, floor: 'owner-read', twin: 'owner-read' },
  { name: 'owner-read-sampled', gateway: 'sampled', steps: ownerRead, floor: 'owner-read', twin: 'owner-read' },
];

/** A failed MCP call still answers HTTP 200: the result says so. */
export function mcpFailed(body: string): boolean {
  return body.includes('"isError":true') || body.includes('"error":{');
}
