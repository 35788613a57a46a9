/**
 * MCP clients nobody here wrote, connected over real HTTP to a stack's /mcp with a key: the TS
 * SDK v1 client (2025 handshake) and the TS SDK v2 client (2026-07-28, adopted after probing
 * `server/discover`).
 */
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export async function mcpClient(baseUrl: string, key: string): Promise<Client> {
  const client = new Client({ name: 'openpm-tests', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

export type ElicitationAnswer =
  | { action: 'accept'; content: Record<string, string | number | boolean | string[]> }
  | { action: 'decline' }
  | { action: 'cancel' };

export interface ModernClientOptions {
  /** Declares form elicitation and answers every request with this (e.g. the user's yes). */
  elicit?: (params: { message: string; requestedSchema: unknown }) => ElicitationAnswer;
  /** Observes every HTTP exchange (method header, status) the client makes. */
  onExchange?: (sent: { method: string | null; body: string }, status: number) => void;
}

export async function mcpModernClient(baseUrl: string, key: string, opts: ModernClientOptions = {}): Promise<ModernClient> {
  const client = new ModernClient(
    { name: 'openpm-tests-modern', version: '1.0.0' },
    { versionNegotiation: { mode: 'auto' }, ...(opts.elicit !== undefined && { capabilities: { elicitation: { form: {} } } }) },
  );
  const elicit = opts.elicit;
  if (elicit !== undefined) {
    client.setRequestHandler('elicitation/create', async (request) => {
      const params = request.params as { message: string; requestedSchema: unknown };
      return elicit(params);
    });
  }
  const observe = opts.onExchange;
  const fetchObserved: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (observe !== undefined) {
      const headers = new Headers(init?.headers);
      observe({ method: headers.get('mcp-method'), body: typeof init?.body === 'string' ? init.body : '' }, response.status);
    }
    return response;
  };
  const transport = new ModernTransport(new URL('/mcp', baseUrl), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
    fetch: fetchObserved,
  });
  await client.connect(transport);
  return client;
}
