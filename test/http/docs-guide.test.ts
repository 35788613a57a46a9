/**
 * The MCP guide served at /docs/mcp is docs/mcp.md, whose links to other pages of the
 * repository's docs the gateway does not serve: they are turned into the files' paths.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { withRepositoryPaths } from '../../src/http/docs-page.ts';

describe('withRepositoryPaths', () => {
  it('turns links to repository pages into text and path, and leaves the others', () => {
    expect(withRepositoryPaths('see [performance](performance.md), change 29')).toBe('see performance (`docs/performance.md`), change 29');
    expect(withRepositoryPaths('[resources](contract/resources.md#presence)')).toBe('resources (`docs/contract/resources.md`)');
    expect(withRepositoryPaths('[the README](../README.md)')).toBe('the README (`README.md`)');
    for (const kept of ['[above](#results-and-errors)', '[spec](https://modelcontextprotocol.io/spec.md)', '[page](/docs)']) {
      expect(withRepositoryPaths(kept)).toBe(kept);
    }
  });

  it('leaves no relative link to a Markdown file in the guide as served', () => {
    const guide = withRepositoryPaths(readFileSync(new URL('../../docs/mcp.md', import.meta.url), 'utf8'));
    expect(guide).not.toMatch(/\]\((?![a-z]+:|#|\/)[^)]*\.md/i);
    expect(guide).toContain('(`docs/performance.md`)');
  });
});
