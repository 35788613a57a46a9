// Generated from docs/openapi.json by `npm run client` (@hey-api/openapi-ts): do not edit.

export type { Auth } from '../core/auth.gen.ts';
export type { QuerySerializerOptions } from '../core/bodySerializer.gen.ts';
export {
  formDataBodySerializer,
  jsonBodySerializer,
  urlSearchParamsBodySerializer,
} from '../core/bodySerializer.gen.ts';
export { buildClientParams } from '../core/params.gen.ts';
export { serializeQueryKeyValue } from '../core/queryKeySerializer.gen.ts';
export type { ServerSentEventsResult } from '../core/serverSentEvents.gen.ts';
export type { ClientMeta } from '../core/types.gen.ts';
export { createClient } from './client.gen.ts';
export type {
  Client,
  ClientOptions,
  Config,
  CreateClientConfig,
  Options,
  RequestOptions,
  RequestResult,
  ResolvedRequestOptions,
  ResponseStyle,
  TDataShape,
} from './types.gen.ts';
export { createConfig, mergeHeaders } from './utils.gen.ts';
