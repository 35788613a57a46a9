/**
 * What each kind of request leaves in the old generation: an owner read over REST, the direct MCP
 * `tools/call`, and the MCP messages the SDK answers (`initialize`, `tools/list`, a `tools/call`
 * with `_meta`). A gateway (in-memory, limits off) serves each kind in turn from a few
 * connections; V8's own count of what its scavenges promoted (`--trace-gc-nvp`) is divided by the
 * requests answered. The benchmark's scenarios are all on the direct path; this is the probe for
 * the rest (docs/performance.md, change 29).
 *
 *   node scripts/bench/message-promotion.ts [seconds=8] [rounds=2]
 *   MESSAGES_BASELINE=<directory of another checkout> (its gateway too, the two interleaved kind
 *     by kind, for a before/after in one run)
 *
 * The trace goes to bench-results/messages-<time>.txt.
 */
import { mkdirSync } from 'node:fs';
import { GC_TRACE_FLAGS, GcTrace } from './gc-trace.ts';
import { load, type Step } from './load.ts';
import { gatewayEnv, spawnSandbox } from './parties.ts';
import { freePort, spawnChild, startFlags, type Child } from './processes.ts';
import { mcpMessage, SCENARIOS } from './scenarios.ts';

const seconds = Number(process.argv[2] ?? 8);
const rounds = Number(process.argv[3] ?? 2);
const CONNECTIONS = 8;
const baselineDir = process.env.MESSAGES_BASELINE;

const profile = { name: 'get_my_profile', arguments: {} };

const KINDS: readonly { name: string; steps: Step[] }[] = [
  { name: 'REST owner read', steps: SCENARIOS.find((s) => s.name === 'me')?.gateway ?? [] },
  { name: 'MCP tools/call (direct)', steps: mcpMessage({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: profile }) },
  {
    name: 'MCP initialize',
    steps: mcpMessage({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1.0.0' } },
    }),
  },
  { name: 'MCP tools/list', steps: mcpMessage({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) },
  {
    name: 'MCP tools/call with _meta',
    steps: mcpMessage({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { ...profile, _meta: { progressToken: 1 } } }),
  },
];

const started = Date.now();
mkdirSync('bench-results', { recursive: true });
const trace = new GcTrace(`bench-results/messages-${new Date(started).toISOString().replace(/[:.]/g, '-')}.txt`, started, 'promotion');
const totals = (name: string) => trace.totals().get(name) ?? { promotedBytes: 0, scavenges: 0, fullCollections: 0 };

const children: Child[] = [];
try {
  const sandbox = await spawnSandbox();
  children.push(sandbox);
  const targets: { name: string; child: Child }[] = [];
  for (const [name, dir] of [['gateway', '.'], ...(baselineDir === undefined ? [] : [['baseline', baselineDir]])] as const) {
    const port = await freePort();
    const child = await spawnChild({
      name,
      args: [`${dir}/src/server.ts`],
      nodeFlags: [...startFlags(dir), ...GC_TRACE_FLAGS.promotion],
      onLine: (line) => trace.line(name, line),
      env: { ...gatewayEnv(sandbox.url, 'info'), PORT: String(port), RATE_LIMITS: 'off' },
      port,
      readyPath: '/livez',
    });
    children.push(child);
    targets.push({ name, child });
  }
  // A warm-up of every kind, so that each is measured on compiled code.
  for (const { child } of targets)
    for (const kind of KINDS) await load({ url: child.url, steps: kind.steps, connections: CONNECTIONS, duration: 3 });
  trace.mark('measured runs');

  console.log(
    `${seconds} s a kind, ${CONNECTIONS} connections, ${rounds} round(s); promoted bytes per request (requests a second, scavenges, full collections)`,
  );
  for (let round = 1; round <= rounds; round++) {
    for (const kind of KINDS) {
      const cells: string[] = [];
      for (const { name, child } of targets) {
        const before = { ...totals(name) };
        const result = await load({ url: child.url, steps: kind.steps, connections: CONNECTIONS, duration: seconds });
        // The last scavenge of the run is printed a moment after it.
        await new Promise((resolve) => setTimeout(resolve, 300));
        const after = totals(name);
        if (result.failed > 0) throw new Error(`${name}, ${kind.name}: ${result.failed} failed: ${result.sample ?? ''}`);
        const perRequest = (after.promotedBytes - before.promotedBytes) / result.ok;
        cells.push(
          `${name} ${perRequest.toFixed(0).padStart(6)} B (${(result.ok / result.seconds).toFixed(0)}/s, ${after.scavenges - before.scavenges} s, ${after.fullCollections - before.fullCollections} mc)`,
        );
      }
      console.log(`${round} ${kind.name.padEnd(26)} ${cells.join('   ')}`);
    }
  }
  console.log(`trace: ${trace.file}; took ${((Date.now() - started) / 1000).toFixed(0)} s`);
} finally {
  for (const child of children.reverse()) await child.stop();
}
