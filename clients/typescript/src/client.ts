/**
 * The generated SDK (src/generated/, from docs/openapi.json by `npm run client`) set up for this
 * API: the key sent as the bearer token, and every error answer thrown as an OpenPmError, so
 * generated calls plug straight into previewConfirmExecute.
 *
 *   const client = createOpenPmClient({ baseUrl: 'https://gateway.example/open/v1', apiKey });
 *   const { data: page } = await listTopics({ client, query: { limit: 5 } });
 *
 * Every generated call takes `{ client, path, query, body, headers }` and resolves with
 * `{ data, request, response }` (data typed from the document), or rejects.
 */
import { OpenPmError } from './errors.ts';
import { type Client, createClient, createConfig } from './generated/client/index.ts';
import type { ClientOptions } from './generated/types.gen.ts';

export interface OpenPmClientOptions {
  /** The API's root, `/open/v1` included, e.g. `https://gateway.example/open/v1`. */
  baseUrl: string;
  /** A personal API key (`opk_live_…`, `opk_test_…`). */
  apiKey: string;
  /** Sent with every request, e.g. `{ 'Accept-Language': 'ja' }`. */
  headers?: Record<string, string>;
  /** Used instead of the global fetch (a proxy, a test double). */
  fetch?: typeof globalThis.fetch;
}

export function createOpenPmClient(options: OpenPmClientOptions): Client {
  const client = createClient(
    createConfig<ClientOptions>({
      baseUrl: options.baseUrl,
      auth: () => options.apiKey,
      ...(options.headers === undefined ? {} : { headers: options.headers }),
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
      throwOnError: true,
    }),
  );
  client.interceptors.error.use(toOpenPmError);
  return client;
}

/**
 * What a failed call rejects with. An error answer's parsed body becomes an OpenPmError (or a
 * plain Error when it is not the API's envelope, e.g. a proxy's page). An exception is kept as
 * it is: without an answer (a network error, a timeout) it is what isRetryable recognises.
 */
export function toOpenPmError(error: unknown, response: Response | undefined): unknown {
  if (response === undefined || error instanceof Error) return error;
  return OpenPmError.fromResponse(response, error) ?? new Error(`HTTP ${response.status}`, { cause: error });
}
