/**
 * The MCP guide served at /docs/mcp is docs/mcp.md, whose links to other pages of the
 * repository's docs the gateway does not serve: they are turned into the files' paths. Its
 * sections become the page's sections, one sidebar entry each.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { guideDocument, withRepositoryPaths } from '../../src/surfaces/rest/docs-page.ts';

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

describe('guideDocument', () => {
  it('makes the opening paragraphs the introduction and each ## section a tag, sub-headings kept inside', () => {
    const doc = guideDocument('Opening text.\n\n## Connecting\n\nHow.\n\n## Per-request cost\n\nWhy.\n\n### Figures\n\nMeasured.\n');
    expect(doc.info).toMatchObject({ title: 'MCP guide', description: 'Opening text.' });
    expect(doc.tags).toEqual([
      { name: 'Connecting', description: 'How.' },
      { name: 'Per-request cost', description: 'Why.\n\n### Figures\n\nMeasured.' },
    ]);
    expect(doc.paths).toEqual({});
  });

  it('renders every section of the real guide', () => {
    const guide = readFileSync(new URL('../../docs/mcp.md', import.meta.url), 'utf8');
    const sections = [...guide.matchAll(/^## (.+)$/gm)].map((m) => m[1]?.trim());
    expect(guideDocument(guide).tags.map((t) => t.name)).toEqual(sections);
  });
});
