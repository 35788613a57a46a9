/**
 * server.json, the MCP Registry listing (docs/mcp.md#registry): a remote Streamable HTTP server
 * whose Authorization header is a secret the user supplies, at the contract's version, within the
 * registry's limits.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVER_INFO } from '../../../src/surfaces/mcp/protocol.ts';

const listing = JSON.parse(readFileSync(new URL('../../../server.json', import.meta.url), 'utf8'));

describe('server.json', () => {
  it('names the registry schema, a reverse-DNS name, a short description and the contract version', () => {
    expect(listing.$schema).toMatch(/^https:\/\/static\.modelcontextprotocol\.io\/schemas\/\d{4}-\d{2}-\d{2}\/server\.schema\.json$/);
    expect(listing.name).toMatch(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
    expect(listing.description.length).toBeLessThanOrEqual(100);
    expect(listing.version).toBe(SERVER_INFO.version);
  });

  it('lists one remote: Streamable HTTP at /mcp, the key as a required secret header', () => {
    expect(listing.remotes).toHaveLength(1);
    const [remote] = listing.remotes;
    expect(remote.type).toBe('streamable-http');
    expect(remote.url).toMatch(/\/mcp$/);
    for (const name of remote.url.match(/\{(\w+)\}/g) ?? []) expect(remote.variables?.[name.slice(1, -1)]?.isRequired).toBe(true);
    expect(remote.headers).toEqual([
      expect.objectContaining({ name: 'Authorization', isRequired: true, isSecret: true, value: 'Bearer {api_key}' }),
    ]);
    expect(remote.headers[0].variables.api_key).toMatchObject({ isRequired: true, isSecret: true });
  });
});
