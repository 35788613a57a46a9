/**
 * JSON-RPC batches as JSON-RPC 2.0 defines them (docs/mcp.md#batches). The SDK's transport
 * answers a batch of one with a bare object, an empty batch with an empty `202`, and keys the
 * answers of a batch by id, so two requests sharing one get a single answer. The route refuses
 * what cannot be answered one for one before any message is counted or run, and answers every
 * other batch with an array.
 */
import { MAX_BATCH_SIZE } from '@modelcontextprotocol/sdk/server/requestBody.js';

/** The JSON-RPC error of a batch refused as a whole: one object, `id` null, HTTP 400. */
export interface BatchRefusal {
  jsonrpc: '2.0';
  error: { code: -32600; message: string };
  id: null;
}

/** The refusal of a batch that cannot be answered one for one, or null when it can. */
export function refuseBatch(messages: readonly unknown[]): BatchRefusal | null {
  const problem = batchProblem(messages);
  return problem === null ? null : { jsonrpc: '2.0', error: { code: -32600, message: `Invalid Request: ${problem}` }, id: null };
}

function batchProblem(messages: readonly unknown[]): string | null {
  if (messages.length === 0) return 'a batch must hold at least one message.';
  // The SDK's own bound, checked here too so that an oversized batch spends nothing.
  if (messages.length > MAX_BATCH_SIZE) return `a batch must hold at most ${MAX_BATCH_SIZE} messages.`;
  // 1 and "1" are different ids, as they are to the SDK.
  const ids = new Set<string | number>();
  for (const message of messages) {
    const id = requestIdOf(message);
    if (id === undefined) continue;
    // Answers are matched to requests by id alone: a client could not tell two answers apart.
    if (ids.has(id)) return 'each request of a batch needs an id of its own.';
    ids.add(id);
  }
  return null;
}

/** The id of a JSON-RPC request (a notification or a response has none that is answered). */
function requestIdOf(message: unknown): string | number | undefined {
  if (message === null || typeof message !== 'object') return undefined;
  const m = message as { method?: unknown; id?: unknown };
  if (typeof m.method !== 'string') return undefined;
  return typeof m.id === 'string' || typeof m.id === 'number' ? m.id : undefined;
}

/** The SDK's answer to a batch, as an array even when the batch held one request. */
export function asBatchAnswer(text: string): string {
  return text.startsWith('[') ? text : `[${text}]`;
}
