/**
 * Request bodies are JSON only (docs/contract/errors.md#request-errors): Fastify's plain-text
 * parser is removed, so any other Content-Type is refused before a route runs.
 *
 * The JSON parser is Fastify's own (secure-json-parse, prototype poisoning refused), wrapped so
 * that a request to an unknown route is answered 404 whatever its body: Fastify already lets
 * an unknown route through with an unsupported Content-Type, but would still parse a JSON body
 * and answer a malformed one with 400, telling the caller the route exists.
 *
 * A body naming `amount_coins` is also read with the contract's reviver for it
 * (src/contract/writes.ts, `exactAmountCoins`): a stake written as a fraction stays a fraction.
 */
import type { FastifyInstance } from 'fastify';
import { exactAmountCoins } from '../contract/writes.ts';

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
    const text = body as string;
    parseJson(request, text, (err, parsed) => {
      // A stake is judged on the number as written, not as a double rounds it: such bodies are
      // read again (their poisoning already refused above) with the reviver that sees its text.
      if (err !== null || !text.includes('"amount_coins"')) done(err, parsed);
      else done(null, JSON.parse(text, exactAmountCoins as (key: string, value: unknown) => unknown));
    });
  });
}
