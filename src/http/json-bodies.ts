/**
 * Request bodies are JSON only (docs/contract/errors.md#request-errors): Fastify's plain-text
 * parser is removed, so any other Content-Type is refused before a route runs.
 *
 * The JSON parser is Fastify's own (secure-json-parse, prototype poisoning refused), wrapped so
 * that a request to an unknown route is answered 404 whatever its body: Fastify already lets
 * an unknown route through with an unsupported Content-Type, but would still parse a JSON body
 * and answer a malformed one with 400, telling the caller the route exists.
 */
import type { FastifyInstance } from 'fastify';

export function acceptJsonBodiesOnly(app: FastifyInstance): void {
  app.removeContentTypeParser('text/plain');
  // The instance's own poisoning settings (Fastify's default: an error on either kind).
  const { onProtoPoisoning = 'error', onConstructorPoisoning = 'error' } = app.initialConfig;
  const parseJson = app.getDefaultJsonParser(onProtoPoisoning, onConstructorPoisoning);
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (request.is404) {
      done(null, undefined);
      return;
    }
    parseJson(request, body as string, done);
  });
}
