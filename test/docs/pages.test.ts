/**
 * The documentation holds together: every relative link between Markdown pages (docs/, the
 * README files) names a file that exists, and the Markdown under docs/ stays a set of documents
 * a reader can get through: 200 KB in all, the contract reference included.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const MAX_DOCS_BYTES = 200_000;

function markdownUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = posix.join(dir, e.name);
    if (e.isDirectory()) return markdownUnder(path);
    return e.name.endsWith('.md') ? [path] : [];
  });
}

const PAGES = [...markdownUnder('docs'), 'README.md', 'helm/openpm-gateway/README.md', 'CHANGELOG.md', 'SECURITY.md'].filter((p) =>
  existsSync(join(ROOT, p)),
);

/** Relative link targets of a page (no scheme, no pure anchor), without their anchor. */
function relativeLinks(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1] as string)
    .filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t) && !t.startsWith('#'))
    .map((t) => t.replace(/#.*$/, ''));
}

describe('documentation pages', () => {
  it('link only to files that exist', () => {
    const broken = PAGES.flatMap((page) =>
      relativeLinks(readFileSync(join(ROOT, page), 'utf8'))
        .filter((target) => !existsSync(resolve(ROOT, dirname(page), target)))
        .map((target) => `${page} -> ${target}`),
    );
    expect(broken).toEqual([]);
  });

  it('hold no more Markdown under docs/ than the ceiling', () => {
    const sizes = markdownUnder('docs').map((p) => [p, statSync(join(ROOT, p)).size] as const);
    const total = sizes.reduce((sum, [, n]) => sum + n, 0);
    const largest = [...sizes].sort((a, b) => b[1] - a[1]).slice(0, 3);
    expect(total, `largest: ${largest.map(([p, n]) => `${relative('.', p)} ${n}`).join(', ')}`).toBeLessThanOrEqual(MAX_DOCS_BYTES);
  });
});
