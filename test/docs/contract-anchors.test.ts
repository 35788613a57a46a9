/**
 * Citations of the contract reference (docs/contract/) must resolve: every
 * `docs/contract/<page>.md#<anchor>` in code, tests and docs, and every markdown link to those
 * pages, names a page that exists and an explicit anchor (`<a id="…">`) on it. Source folders
 * must cite the contract only that way: a section number of a document kept outside the
 * repository cannot be followed by anyone reading it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CONTRACT_DIR = 'docs/contract';

/** Folders whose files may cite the contract; every citation in them must resolve. */
const CITING_DIRS = ['src', 'mappers', 'sandbox', 'fixtures', 'bin', 'scripts', 'test', 'docs'];
const CITING_ROOT_FILES = ['README.md'];
/** Folders of shipped code and data: they must not cite the outside documents at all. */
const SOURCE_DIRS = ['src', 'mappers', 'sandbox', 'fixtures', 'bin', 'scripts'];

const TEXT_FILE = /\.(?:[cm]?[jt]s|sh|md|json|ya?ml|txt)$/;
const ANCHOR_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MAX_ANCHOR_LENGTH = 40;

interface Citation {
  file: string;
  line: number;
  /** Repository-relative path of the cited page. */
  page: string;
  anchor: string | null;
}

interface Leftover {
  file: string;
  line: number;
  text: string;
}

/** Repository-relative paths of the text files under `dir`, in a stable order. */
function filesUnder(dir: string): string[] {
  const abs = resolve(ROOT, dir);
  if (!existsSync(abs)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(abs, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const rel = posix.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(rel));
    else if (entry.isFile() && TEXT_FILE.test(entry.name)) out.push(rel);
  }
  return out.sort();
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Citations of contract pages in one file, whatever its kind. */
function citationsIn(file: string, text: string): Citation[] {
  const found = new Map<string, Citation>();
  const add = (index: number, page: string, anchor: string | undefined) => {
    const c: Citation = { file, line: lineAt(text, index), page, anchor: anchor ? anchor : null };
    found.set(`${c.line}|${c.page}|${c.anchor}`, c);
  };

  // The repository-relative form, anywhere (comments, strings, prose).
  for (const m of text.matchAll(/(?<![\w./-])docs\/contract\/([A-Za-z0-9_.-]+?\.md)(?:#([A-Za-z0-9_-]+))?/g)) {
    add(m.index, `${CONTRACT_DIR}/${m[1]}`, m[2]);
  }

  if (file.endsWith('.md')) {
    const here = posix.dirname(file);
    const targets: { index: number; target: string }[] = [];
    for (const m of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push({ index: m.index, target: m[1] ?? '' });
    for (const m of text.matchAll(/^[ \t]*\[[^\]]+\]:[ \t]*<?(\S+?)>?(?:[ \t]+"[^"]*")?[ \t]*$/gm))
      targets.push({ index: m.index, target: m[1] ?? '' });
    for (const { index, target } of targets) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, mailto:, …
      const hash = target.indexOf('#');
      const path = hash === -1 ? target : target.slice(0, hash);
      const anchor = hash === -1 ? undefined : target.slice(hash + 1);
      const page = path === '' ? file : posix.normalize(posix.join(here, path));
      if (page.startsWith(`${CONTRACT_DIR}/`) && page.endsWith('.md')) add(index, page, anchor);
    }
  }
  return [...found.values()];
}

/** The explicit anchors of a page, in order (duplicates kept, so they can be reported). */
function anchorsOf(text: string): string[] {
  return [...text.matchAll(/<a\s+(?:[^>]*\s)?id="([^"]*)"/g)].map((m) => m[1] ?? '');
}

/** Citations of the outside contract documents that remain in a file. */
function leftoverCitations(file: string, text: string): Leftover[] {
  const patterns = [
    // "SPEC 4.1", "SPEC section 7", and a number pushed to the next comment line.
    /\bSPEC\b(?=(?:\s|\*|\/\/|#)*(?:sections?\s+)?\d)/g,
    /\bSPEC\.md\b/g,
    /\bDECISIONS\b/g,
  ];
  const lines = new Set<number>();
  for (const re of patterns) for (const m of text.matchAll(re)) lines.add(lineAt(text, m.index));
  const all = text.split('\n');
  return [...lines].sort((a, b) => a - b).map((line) => ({ file, line, text: (all[line - 1] ?? '').trim() }));
}

function read(file: string): string {
  return readFileSync(resolve(ROOT, file), 'utf8');
}

const contractPages = filesUnder(CONTRACT_DIR).filter((f) => f.endsWith('.md'));
const anchorsByPage = new Map(contractPages.map((page) => [page, anchorsOf(read(page))]));
const citingFiles = [...CITING_DIRS.flatMap(filesUnder), ...CITING_ROOT_FILES.filter((f) => existsSync(resolve(ROOT, f)))];

describe('the contract reference', () => {
  it('has an index and pages with unique, short kebab-case anchors', () => {
    expect(contractPages).toContain(`${CONTRACT_DIR}/README.md`);
    const problems: string[] = [];
    for (const [page, anchors] of anchorsByPage) {
      const seen = new Set<string>();
      for (const id of anchors) {
        if (!ANCHOR_ID.test(id) || id.length > MAX_ANCHOR_LENGTH) problems.push(`${page}: anchor "${id}" is not short kebab-case`);
        if (seen.has(id)) problems.push(`${page}: anchor "${id}" is defined twice`);
        seen.add(id);
      }
      if (page !== `${CONTRACT_DIR}/README.md` && anchors.length === 0) problems.push(`${page}: no anchors`);
    }
    expect(problems).toEqual([]);
  });

  it('lists every page in its index', () => {
    const indexed = new Set(citationsIn(`${CONTRACT_DIR}/README.md`, read(`${CONTRACT_DIR}/README.md`)).map((c) => c.page));
    const missing = contractPages.filter((p) => p !== `${CONTRACT_DIR}/README.md` && !indexed.has(p));
    expect(missing).toEqual([]);
  });

  it('is cited only by page and anchor that exist', () => {
    const citations = citingFiles.flatMap((f) => citationsIn(f, read(f)));
    // The pages link to each other, so a scan that finds nothing is itself broken.
    expect(citations.length).toBeGreaterThan(contractPages.length);
    const problems: string[] = [];
    for (const c of citations) {
      const anchors = anchorsByPage.get(c.page);
      const cited = `${c.page}${c.anchor === null ? '' : `#${c.anchor}`}`;
      if (anchors === undefined) problems.push(`${c.file}:${c.line}: ${cited}: no such page`);
      else if (c.anchor !== null && !anchors.includes(c.anchor)) problems.push(`${c.file}:${c.line}: ${cited}: no such anchor`);
    }
    expect(problems).toEqual([]);
  });

  it('is the only way source files cite the contract (no SPEC or DECISIONS section numbers)', () => {
    const leftovers = SOURCE_DIRS.flatMap(filesUnder).flatMap((f) => leftoverCitations(f, read(f)));
    expect(leftovers.map((l) => `${l.file}:${l.line}: ${l.text}`)).toEqual([]);
  });
});

describe('the citation scanner', () => {
  // Built from pieces so that this file does not cite a page that does not exist.
  const dir = ['docs', 'contract'].join('/');

  it('finds repository-relative citations with their line, page and anchor', () => {
    const text = `// one\n// see ${dir}/writes.md#order-preview-precedence.\nconst x = '${dir}/limits.md';\n`;
    expect(citationsIn('src/a.ts', text)).toEqual([
      { file: 'src/a.ts', line: 2, page: `${dir}/writes.md`, anchor: 'order-preview-precedence' },
      { file: 'src/a.ts', line: 3, page: `${dir}/limits.md`, anchor: null },
    ]);
  });

  it('resolves relative markdown links, inline and by reference, and same-page anchors', () => {
    const fromDocs =
      'See [the flow](contract/writes.md#two-phase-flow) and [ops](operations.md#kill-switch).\n\n[lim]: contract/limits.md#windows\n';
    expect(citationsIn('docs/writes.md', fromDocs).map((c) => `${c.line} ${c.page}#${c.anchor}`)).toEqual([
      `1 ${dir}/writes.md#two-phase-flow`,
      `3 ${dir}/limits.md#windows`,
    ]);
    const fromContract = 'Back [up](#one-order), over [there](writes.md), out [here](../mcp.md#language).';
    expect(citationsIn(`${dir}/trading.md`, fromContract).map((c) => [c.page, c.anchor])).toEqual([
      [`${dir}/trading.md`, 'one-order'],
      [`${dir}/writes.md`, null],
    ]);
    expect(citationsIn('README.md', `[x](${dir}/README.md) [y](https://example.com/${dir}.md)`).map((c) => c.page)).toEqual([
      `${dir}/README.md`,
    ]);
  });

  it('reads explicit anchors only', () => {
    expect(anchorsOf('<a id="windows"></a>\n## Windows\n<a class="x" id="limit-classes"></a>\n## Heading only')).toEqual([
      'windows',
      'limit-classes',
    ]);
  });

  it('flags citations of the outside documents, also across comment lines, and nothing else', () => {
    const spec = ['SP', 'EC'].join('');
    const decisions = ['DECI', 'SIONS'].join('');
    const text = [
      `/** Limits (${spec} 8; ${decisions}.md section 8). */`,
      `// ${spec} section 7 plus`,
      ` * as ${spec}`,
      ` * 1.3 says`,
      `export const ${spec}_LIMITS = 1; // INSPECTOR, ${spec}s, ${spec} prose`,
      `// ${spec}.md`,
    ].join('\n');
    expect(leftoverCitations('src/x.ts', text).map((l) => l.line)).toEqual([1, 2, 3, 6]);
  });
});
