/**
 * The MCP transport's Origin rule: servers must check `Origin` so that a page a browser loaded
 * from another site (or from a name rebound to this host) cannot drive the server through the
 * user's browser. Only the origins an operator lists in MCP_ALLOWED_ORIGINS (parsed by src/config.ts) may; a request
 * carrying any other is refused before authentication, with a JSON-RPC error as the SDK's own
 * transport answers it (a protocol fault, not a contract error). A request without `Origin`
 * (agents, SDK clients, curl) is never a browser's cross-site request, and passes.
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction, onRequestHookHandler } from 'fastify';

const FORBIDDEN_ORIGIN = {
  jsonrpc: '2.0',
  error: { code: -32000, message: 'Forbidden: requests from this Origin are not allowed.' },
  id: null,
} as const;

export function originGate(allowed: ReadonlySet<string>): onRequestHookHandler {
  // Callback style, as every hook that waits for nothing (docs/performance.md, kept optimisations): the
  // refusal is sent from the hook, which then does not call done().
  return function checkOrigin(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) {
    const origin = request.headers.origin;
    if (origin === undefined || allowed.has(origin.toLowerCase())) {
      done();
      return;
    }
    request.log.info('mcp request refused: origin not allowed');
    reply.code(403).send(FORBIDDEN_ORIGIN);
  };
}
