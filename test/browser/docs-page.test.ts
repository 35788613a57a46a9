/**
 * The docs page in a real browser (Debian's chromium through playwright-core), against a
 * gateway in front of the sandbox: it renders offline, lists every operation, and its
 * "try it" makes a real call with the offered demo key. Screenshots go to
 * test-results/browser/. Run with `npm run test:browser` (CI installs chromium when missing).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/operations/index.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const OUTPUT = new URL('../../test-results/browser/', import.meta.url);
// Flags for a headless browser on a machine whose network refuses anything but local traffic.
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let stack: Stack;
let context: BrowserContext;
let profile: string;
const offsite: string[] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`No browser at ${CHROMIUM}: apt-get install chromium, or set CHROMIUM_PATH.`);
  mkdirSync(OUTPUT, { recursive: true });
  stack = await startStack({ env: { RATE_LIMITS: 'off' } });
  profile = mkdtempSync(join(tmpdir(), 'openpm-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 800 },
  });
  // Anything not served by this gateway is refused and remembered: the page must not need it.
  const origin = new URL(stack.url).origin;
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (new URL(url).origin === origin) return route.continue();
    offsite.push(url);
    return route.abort();
  });
});

afterAll(async () => {
  await context?.close();
  await stack?.close();
  if (profile !== undefined) rmSync(profile, { recursive: true, force: true });
});

async function open(path: string): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (err) => pageErrors.push(err.message));
  await page.goto(stack.url + path);
  return page;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('/docs in a browser', () => {
  let page: Page;

  beforeAll(async () => {
    page = await open('/docs');
    await page
      .getByRole('link', { name: /List topic categories/ })
      .first()
      .waitFor({ timeout: 90_000 });
  });

  it('lists every operation in the sidebar, linked to its method and path', async () => {
    for (const op of OPERATIONS) {
      const link = page.getByRole('link', { name: new RegExp(`^${escapeRegExp(op.title)}`) }).first();
      expect(await link.count(), op.name).toBe(1);
      const href = (await link.getAttribute('href')) ?? '';
      expect(href.endsWith(`/${op.rest.method}${op.rest.path}`), `${op.name}: ${href}`).toBe(true);
    }
    await page.screenshot({ path: new URL('docs.png', OUTPUT).pathname });
  });

  it('offers the sandbox demo key and "try it" gets a 200 from the sandbox', async () => {
    await page
      .getByRole('link', { name: /List topic categories/ })
      .first()
      .click();
    await page.getByRole('button', { name: /Test Request\s*\(get \/topic-categories\)/ }).click();
    const send = page.getByRole('button', { name: /^Send get request to/ });
    await send.waitFor({ timeout: 30_000 });
    const [response] = await Promise.all([page.waitForResponse((r) => r.url() === `${stack.url}/open/v1/topic-categories`), send.click()]);
    expect(response.status()).toBe(200);
    expect(response.request().headers()['authorization']).toBe('Bearer opk_test_alice_write_000000000');
    expect((await response.json()).data.length).toBeGreaterThan(0);
    await page.getByText('200 OK').first().waitFor({ timeout: 30_000 });
    await page.screenshot({ path: new URL('docs-try-it.png', OUTPUT).pathname });
  });

  it('renders the MCP guide linked from the introduction', async () => {
    const guide = await open('/docs/mcp');
    await guide.getByRole('heading', { name: 'Tools by scope' }).first().waitFor({ timeout: 90_000 });
    expect(await guide.getByText('list_my_ruby_ledger').count()).toBeGreaterThan(0);
    // Every link of the guide to another page of the gateway leads somewhere.
    const hrefs = await guide.$$eval('a[href]', (links) => links.map((a) => (a as unknown as { href: string }).href));
    const elsewhere = [...new Set(hrefs)].filter((h) => h.startsWith(stack.url) && new URL(h).pathname !== '/docs/mcp');
    for (const href of elsewhere) expect([href, (await fetch(href)).status]).not.toEqual([href, 404]);
    await guide.screenshot({ path: new URL('docs-mcp.png', OUTPUT).pathname });
  });

  it('lays the MCP guide out like the reference: a sidebar entry per section, the whole width, code that fits', async () => {
    const guide = await open('/docs/mcp');
    await guide.getByRole('heading', { name: 'Tools by scope' }).first().waitFor({ timeout: 90_000 });
    const sections = [...readFileSync(new URL('../../docs/mcp.md', import.meta.url), 'utf8').matchAll(/^## (.+)$/gm)].map((m) =>
      m[1]?.trim(),
    );
    expect(sections.length).toBeGreaterThan(3);
    const sidebar = guide.locator('.t-doc__sidebar');
    for (const name of sections) await expect(sidebar.getByText(name as string, { exact: true }).count(), name).resolves.toBe(1);
    // Scalar renders the sections near the view: measure at the top, and again at the last section.
    // Run in the page (a string: the project compiles without the DOM library).
    const measure = () =>
      guide.evaluate<{ main: number; narrowest: number; codeBlocks: number; sideways: number; page: number }>(`(() => {
        const main = document.querySelector('.section-content')?.getBoundingClientRect().width ?? 0;
        const text = [...document.querySelectorAll('.markdown')].map((m) => m.getBoundingClientRect().width).filter((w) => w > 0);
        const code = [...document.querySelectorAll('.markdown pre, .markdown pre *')];
        return {
          main,
          narrowest: Math.min(...text),
          codeBlocks: document.querySelectorAll('.markdown pre').length,
          sideways: code.filter((e) => e.scrollWidth > e.clientWidth + 1).length,
          page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        };
      })()`);
    const top = await measure();
    await sidebar.getByText(sections.at(-1) as string, { exact: true }).click();
    await guide
      .getByRole('heading', { name: sections.at(-1) as string })
      .first()
      .waitFor();
    const end = await measure();
    for (const layout of [top, end]) {
      // Text and code span the content area, not the half of it an operation's text gets.
      expect(layout.main).toBeGreaterThan(600);
      expect(layout.narrowest).toBeGreaterThan(layout.main * 0.9);
      expect([layout.sideways, layout.page]).toEqual([0, 0]);
    }
    expect(top.codeBlocks + end.codeBlocks).toBeGreaterThan(1);
    await guide.screenshot({ path: new URL('docs-mcp-layout.png', OUTPUT).pathname, fullPage: true });
  });

  it('needed nothing from outside the gateway, and threw no script error', () => {
    expect(offsite).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
