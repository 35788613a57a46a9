/**
 * The human documentation, served without a key: /docs renders the live OpenAPI document with
 * Scalar's API reference, /docs/mcp renders the MCP guide the same way (its sections as the
 * sidebar's entries, the whole width for the text), and / leads to /docs.
 *
 * Everything works offline: the reference's script comes from the installed package (served
 * at /docs/js/scalar.js), the default web fonts and telemetry are off, and the AI agent and
 * MCP features of the hosted product are disabled.
 *
 * When the backend is the sandbox, the page offers its documented demo key for "try it". The
 * gateway cannot tell a sandbox from a real backend by configuration, so it asks: the first
 * page view checks whether the demo key authenticates (once, then remembered; a real backend
 * does not know the key).
 *
 * Scalar's package is about 5 MB of script (its source, and the browser bundle it serves, held
 * as strings): some 20 MB of a replica's memory that API traffic never uses. So the pages live
 * in a small Fastify application of their own, built on the first /docs request, and the
 * gateway hands /docs requests to it with inject().
 */
import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Services } from '../../services.ts';
import { hashKey } from '../../auth/authenticator.ts';
import { CONTRACT_VERSION } from '../../contract/version.ts';

/** The sandbox's read+write demo key (docs/contract/sandbox.md#sandbox-keys; public by design). */
export const SANDBOX_DEMO_KEY = 'opk_test_alice_write_000000000';

const MCP_GUIDE = new URL('../../../docs/mcp.md', import.meta.url);
/** How long a negative answer (not the sandbox, or the backend did not answer) is kept. */
const RECHECK_MS = 60_000;

export interface DocsPageOptions {
  services: Services;
  /** Where the page loads the OpenAPI document from (served elsewhere, without a key). */
  documentUrl: string;
  title: string;
}

/** Scalar settings for a page that must not reach the internet. */
const OFFLINE = {
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  // The hosted client lives on the internet, and would receive the key.
  hideClientButton: true,
  defaultHttpClient: { targetKey: 'shell', clientKey: 'curl' },
  // 23 operations: small enough to show every one in the sidebar from the start.
  defaultOpenAllTags: true,
} as const;

/** Headers of the docs application's answer that belong to its own (injected) connection. */
const CONNECTION_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'date']);

export async function docsPage(app: FastifyInstance, opts: DocsPageOptions): Promise<void> {
  let mounted: Promise<FastifyInstance> | undefined;
  const docsApp = () => {
    mounted ??= buildDocsApp(opts).catch((err: unknown) => {
      mounted = undefined; // try again on the next view
      throw err;
    });
    return mounted;
  };
  const forward = async (request: FastifyRequest, reply: FastifyReply) => {
    const docs = await docsApp();
    const res = await docs.inject({ method: request.method === 'HEAD' ? 'HEAD' : 'GET', url: request.url, headers: request.headers });
    // Anything the pages do not serve is the gateway's own 404, in the contract's envelope.
    if (res.statusCode === 404) return reply.callNotFound();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value !== undefined && !CONNECTION_HEADERS.has(name)) reply.header(name, value);
    }
    return reply.code(res.statusCode).send(res.rawPayload);
  };
  app.addHook('onClose', async () => {
    const docs = await mounted?.catch(() => undefined);
    await docs?.close();
  });
  app.get('/docs', { logLevel: 'warn' }, forward);
  app.get('/docs/*', { logLevel: 'warn' }, forward);
  app.get('/', { logLevel: 'warn' }, async (_request, reply) => reply.redirect('/docs/', 302));
}

/** The docs pages as an application of their own: Scalar's reference and the MCP guide. */
async function buildDocsApp(opts: DocsPageOptions): Promise<FastifyInstance> {
  const { default: scalar } = await import('@scalar/fastify-api-reference');
  const app = Fastify({ logger: false });
  const demoKey = sandboxProbe(opts.services);
  // Scalar serialises its configuration into the page on every view; the key is filled in
  // here once the probe has answered, so the first view after start-up already offers it.
  const apiKey: { token?: string } = {};
  await app.register(scalar, {
    routePrefix: '/docs',
    configuration: {
      ...OFFLINE,
      url: opts.documentUrl,
      pageTitle: opts.title,
      authentication: { preferredSecurityScheme: 'apiKey', securitySchemes: { apiKey } },
    },
    hooks: {
      onRequest: async () => {
        const key = await demoKey();
        if (key === undefined) delete apiKey.token;
        else apiKey.token = key;
      },
    },
  });

  const guide = readGuide();
  if (guide !== undefined) {
    const document = guideDocument(guide);
    await app.register(scalar, {
      routePrefix: '/docs/mcp',
      configuration: {
        ...OFFLINE,
        content: () => document,
        customCss: GUIDE_CSS,
        pageTitle: `${opts.title}: MCP guide`,
        // A guide, not an API: no download, no client snippets.
        documentDownloadType: 'none',
        hiddenClients: true,
        hideModels: true,
      },
    });
  }
  await app.ready();
  return app;
}

/**
 * The guide as an OpenAPI document Scalar can render: its opening paragraphs as the
 * introduction, and each `## ` section as a tag, so the sidebar navigates by section as the
 * reference's does by operation.
 */
export function guideDocument(guide: string): {
  openapi: string;
  info: object;
  tags: { name: string; description: string }[];
  paths: object;
} {
  const [intro = '', ...sections] = guide.split(/^## /m);
  const tags = sections.map((section) => {
    const end = section.indexOf('\n');
    return { name: section.slice(0, end).trim(), description: section.slice(end + 1).trim() };
  });
  return { openapi: '3.1.0', info: { title: 'MCP guide', version: CONTRACT_VERSION, description: intro.trim() }, tags, paths: {} };
}

/**
 * Layout of the guide: no operations fill the reference's right-hand column, so each section
 * takes the whole width, and code wraps instead of scrolling sideways. Scoped under
 * `.scalar-app` so these rules outrank Scalar's own, which set code blocks to scroll.
 */
export const GUIDE_CSS = `
.section-columns { display: block; }
.section-column { width: 100%; max-width: none; }
.section-column:has(.sticky-cards), .section-column:empty { display: none; }
.section-header { max-width: none; }
.scalar-app .markdown pre,
.scalar-app .markdown pre code,
.scalar-app .markdown pre * { white-space: pre-wrap; overflow-wrap: anywhere; overflow-x: visible; }
`;

/** The MCP guide (docs/mcp.md) with its first heading dropped (the page title says it). */
function readGuide(): string | undefined {
  try {
    return withRepositoryPaths(readFileSync(MCP_GUIDE, 'utf8').replace(/^# .*\n+/, ''));
  } catch {
    // Images built without the docs folder serve the reference alone.
    return undefined;
  }
}

/**
 * The guide links other pages of the repository's docs (`performance.md`, `contract/….md`),
 * which the gateway does not serve: each such link becomes its text and the file's path in the
 * repository, so that no link of the served page leads to a 404. Links to a web address or to
 * an anchor of the page stay as they are.
 */
export function withRepositoryPaths(markdown: string): string {
  return markdown.replace(/\[([^\]]+)\]\((?![a-z][a-z0-9+.-]*:|#|\/)([^)\s#]+\.md)(#[^)\s]*)?\)/gi, (_link, text: string, path: string) => {
    return `${text} (\`${posix.join('docs', path)}\`)`;
  });
}

/** Whether the sandbox's demo key works here: checked once, a negative answer again after a minute. */
function sandboxProbe(services: Services): () => Promise<string | undefined> {
  let known: { key: string | undefined; at: number } | undefined;
  let pending: Promise<string | undefined> | undefined;
  return async () => {
    if (known !== undefined && (known.key !== undefined || services.now() - known.at < RECHECK_MS)) return known.key;
    pending ??= services.authenticator
      .authenticate(hashKey(SANDBOX_DEMO_KEY), { requestId: 'docs-page-probe', log: silent })
      .then(
        (caller) => (caller.scopes.has('write') ? SANDBOX_DEMO_KEY : undefined),
        () => undefined,
      )
      .then((key) => {
        known = { key, at: services.now() };
        pending = undefined;
        return key;
      });
    return pending;
  };
}

const silent = { info() {}, warn() {}, error() {}, debug() {} };
