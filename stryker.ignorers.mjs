// Mutants Stryker should not make in the money and limits path.
//
// 1. Text that no rule depends on ('operation-text'). Tool titles and descriptions are checked
//    against the docs elsewhere, log lines are read by people, and a mutant of either would only
//    measure whether a test quotes them.
// 2. Equivalent mutants ('equivalent'): mutants no test can tell apart from the original, each
//    with the reason, in the table below rather than as comments in the production code. A row
//    names its file, the line it applies to (its code, trimmed, which must occur once in the
//    file) and the mutators; a row with `from` and `until` covers the lines from the first up to
//    (not including) the second. A row whose line is no longer in its file stops the run, so
//    the table cannot silently go stale.
import { relative } from 'node:path';
import { PluginKind, declareValuePlugin } from '@stryker-mutator/api/plugin';

const TEXT_PROPERTIES = new Set(['title', 'description']);
const LOG_METHODS = new Set(['debug', 'info', 'warn', 'error']);

/** @type {{ file: string, at?: string, from?: string, until?: string, mutators: string[], reason: string }[]} */
export const EQUIVALENT_MUTANTS = [
  // src/limits/limiter.ts
  {
    file: 'src/limits/limiter.ts',
    at: `read: windowsFor('read', settings),`,
    mutators: ['StringLiteral'],
    reason: 'windowsFor gives every class but search and write the read windows alone',
  },
  // src/limits/auth-throttle.ts
  {
    file: 'src/limits/auth-throttle.ts',
    at: '...(opts.redis !== null ? { redis: opts.redis, nameSpace: `${opts.prefix}auth-fail:` } : {}),',
    mutators: ['ConditionalExpression'],
    reason: 'the plugin takes a null redis as none (its own memory store), as without the option',
  },
  {
    file: 'src/limits/auth-throttle.ts',
    at: 'skipOnError: true,',
    mutators: ['BooleanLiteral'],
    reason: 'every limiter below sets skipOnError itself; this plugin-wide default is never used',
  },
  {
    file: 'src/limits/auth-throttle.ts',
    at: 'address: limiter(opts.perMinute, 60_000, (req) => `a:${req.ip}`),',
    mutators: ['StringLiteral'],
    reason: `a distinct prefix per counter sharing the store; emptied, this key still differs from every other counter's`,
  },
  {
    file: 'src/limits/auth-throttle.ts',
    at: `total: limiter(totalPerMinute, 60_000, () => 'all'),`,
    mutators: ['StringLiteral', 'ArrowFunction'],
    reason: `a distinct prefix per counter sharing the store; emptied, this key still differs from every other counter's; a constant key either way`,
  },
  {
    file: 'src/limits/auth-throttle.ts',
    at: 'address: limiter(perSecond(opts.perMinute), 1_000, (req) => `ma:${req.ip}`),',
    mutators: ['StringLiteral'],
    reason: `a distinct prefix per counter sharing the store; emptied, this key still differs from every other counter's`,
  },
  {
    file: 'src/limits/auth-throttle.ts',
    at: 'addressRetry: limiter(perSecond(opts.perMinute), 1_000, (req) => `mr:${req.ip}`),',
    mutators: ['StringLiteral'],
    reason: `a distinct prefix per counter sharing the store; emptied, this key still differs from every other counter's`,
  },
  {
    file: 'src/limits/auth-throttle.ts',
    at: `total: limiter(perSecond(totalPerMinute), 1_000, () => 'mall'),`,
    mutators: ['StringLiteral', 'ArrowFunction'],
    reason: `a distinct prefix per counter sharing the store; emptied, this key still differs from every other counter's; a constant key either way`,
  },
  {
    file: 'src/limits/auth-throttle.ts',
    at: `totalRetry: limiter(perSecond(totalPerMinute), 1_000, () => 'mrall'),`,
    mutators: ['StringLiteral', 'ArrowFunction'],
    reason: `a distinct prefix per counter sharing the store; emptied, this key still differs from every other counter's; a constant key either way`,
  },
  {
    file: 'src/limits/auth-throttle.ts',
    at: "const refusedKeys = limiter(Number.MAX_SAFE_INTEGER, 60_000, (req) => `r:${hashes.get(req) ?? ''}`);",
    mutators: ['StringLiteral'],
    reason: `the hash is always set before this limiter is called, and the r: prefix only keeps its keys apart from the other counters'`,
  },
  {
    file: 'src/limits/auth-throttle.ts',
    at: 'await refusedKeys(req).catch((err: unknown) => {',
    mutators: ['BlockStatement'],
    reason: 'reached only if the limiter throws despite skipOnError, and it only logs',
  },
  {
    file: 'src/limits/auth-throttle.ts',
    at: `req.log.debug({ err: (err as Error).message }, 'refused key not remembered');`,
    mutators: ['CallExpression'],
    reason: 'reached only if the limiter throws despite skipOnError; a debug line',
  },
  {
    file: 'src/limits/auth-throttle.ts',
    at: 'await Promise.all([failures.address(request), failures.total(request)]).catch((err: unknown) => {',
    mutators: ['BlockStatement'],
    reason: 'reached only if a limiter throws despite skipOnError, and it only logs',
  },
  {
    file: 'src/limits/auth-throttle.ts',
    at: `request.log.debug({ err: (err as Error).message }, 'failed authentication not counted');`,
    mutators: ['CallExpression'],
    reason: 'reached only if a limiter throws despite skipOnError; a debug line',
  },
  // src/limits/store.ts
  {
    file: 'src/limits/store.ts',
    at: 'const log = (this.#minute.get(key) ?? []).filter((t) => t > now - MINUTE_MS);',
    mutators: ['ArrayDeclaration'],
    reason: 'any placeholder entry is not a number and is filtered out at once',
  },
  {
    file: 'src/limits/store.ts',
    at: 'this.#minute.get(u.key)?.push(now);',
    mutators: ['OptionalChaining'],
    reason: 'the log was set a few lines above, so it is always there',
  },
  {
    file: 'src/limits/store.ts',
    at: 'if (++this.#calls % 1000 !== 0) return;',
    mutators: ['UpdateOperator'],
    reason: 'counting down hits the multiples of 1000 just the same',
  },
  {
    file: 'src/limits/store.ts',
    at: `this.#consume = defineScript(redis, 'openpmRateLimitConsume', 'variable', CONSUME);`,
    mutators: ['StringLiteral'],
    reason: `the command's name is ours alone; any other name behaves the same`,
  },
  {
    file: 'src/limits/store.ts',
    from: 'let names = this.#names.get(windows);',
    until: 'return names;',
    mutators: ['all'],
    reason:
      'a cache of a pure function of the array (and names start with a letter, limits are digits, so any separator reads the same); without it every call works the names out again',
  },
  {
    file: 'src/limits/store.ts',
    at: `const args = windows.flatMap((w) => [w.kind === 'minute' ? 'm' : 'd', String(w.limit)]);`,
    mutators: ['StringLiteral'],
    reason: `the script reads every kind but 'm' as a day window`,
  },
  {
    file: 'src/limits/store.ts',
    at: `const oldest = head >= 0 ? head : spec.kind === 'minute' && counted > 0 ? now : null;`,
    mutators: ['EqualityOperator'],
    reason: 'the script answers -1 for an empty window, never 0 (a time stamp of 1970)',
  },
  // src/limits/decision.ts
  {
    file: 'src/limits/decision.ts',
    at: 'return u.oldest === null ? 0 : Math.max(0, u.oldest + MINUTE_MS - now);',
    mutators: ['ConditionalExpression'],
    reason: 'with oldest null the arithmetic gives max(0, MINUTE_MS - now), 0 as well for any real clock',
  },
  // src/auth/verdict-store.ts
  {
    file: 'src/auth/verdict-store.ts',
    at: 'return raw === null ? undefined : parseVerdict(raw);',
    mutators: ['ConditionalExpression'],
    reason: 'parseVerdict(null) is undefined as well (JSON.parse(null) is null)',
  },
  {
    file: 'src/auth/verdict-store.ts',
    from: 'const v = JSON.parse(raw) as Verdict;',
    until: 'return undefined;',
    mutators: ['BlockStatement'],
    reason: 'emptied, the catch below answers undefined all the same',
  },
  {
    file: 'src/auth/verdict-store.ts',
    at: `return typeof v === 'object' && v !== null && typeof v.checkedAt === 'number' ? v : undefined;`,
    mutators: ['ConditionalExpression', 'LogicalOperator'],
    reason:
      'without the object and null guards a primitive has no checkedAt and null throws into the catch, so they answer the same; the check as a whole is tested in test/auth/verdict-store.redis.test.ts',
  },
  // src/auth/authenticator.ts
  {
    file: 'src/auth/authenticator.ts',
    at: 'ttl: Math.max(1, opts.ttlMs),',
    mutators: ['MethodExpression'],
    reason: 'a default only; fetchMethod gives every entry its own ttl, what is left of its window',
  },
  // src/auth/plugin.ts
  {
    file: 'src/auth/plugin.ts',
    at: 'if (name.length !== 13) continue;',
    mutators: ['ConditionalExpression'],
    reason: '`if (false)` is equivalent (the comparison below decides alone); `if (true)` would fail the repeated-header test',
  },
  // src/confirm/claims.ts
  {
    file: 'src/confirm/claims.ts',
    at: `if (current !== null) return decode(current) ?? { state: 'pending' };`,
    mutators: ['ObjectLiteral', 'StringLiteral'],
    reason: 'unreachable fallback, this store never holds an empty value',
  },
  {
    file: 'src/confirm/claims.ts',
    at: `this.#claim = defineScript(redis, 'openpmConfirmClaim', 1, CLAIM_SCRIPT);`,
    mutators: ['StringLiteral'],
    reason: `the command name is only this client's handle on the script`,
  },
  {
    file: 'src/confirm/claims.ts',
    at: `this.#release = defineScript(redis, 'openpmConfirmRelease', 1, RELEASE_SCRIPT);`,
    mutators: ['StringLiteral'],
    reason: `the command name is only this client's handle on the script`,
  },
  {
    file: 'src/confirm/claims.ts',
    at: `return raw === '' ? { state: 'acquired' } : (decode(raw) ?? { state: 'pending' });`,
    mutators: ['ObjectLiteral', 'StringLiteral'],
    reason: `the fallback is unreachable (the script answers '' only on a grant); the grant's literal is checked by every claim test`,
  },
  // src/confirm/execute-once.ts
  {
    file: 'src/confirm/execute-once.ts',
    at: 'while (Date.now() < deadline) {',
    mutators: ['EqualityOperator'],
    reason: `one more poll in the deadline's own millisecond changes nothing`,
  },
  {
    file: 'src/confirm/execute-once.ts',
    at: `const now = await deps.claims.peek(claims.jti).catch(() => ({ state: 'pending' as const }));`,
    mutators: ['ObjectLiteral'],
    reason: 'any answer that is neither null nor done means keep waiting',
  },
  {
    file: 'src/confirm/execute-once.ts',
    at: 'if (now === null) break; // given back after a failure: claim it ourselves (or, once expired, answer 410)',
    mutators: ['ConditionalExpression'],
    reason: 'leaving early only claims again, which answers pending while the token is held',
  },
  {
    file: 'src/confirm/execute-once.ts',
    at: 'if (Date.now() >= deadline) {',
    mutators: ['EqualityOperator'],
    reason: `at the deadline's own millisecond the loop above has already given up`,
  },
  {
    file: 'src/confirm/execute-once.ts',
    at: 'const first = { status: 201, body: { ...result.body, replayed: false } };',
    mutators: ['BooleanLiteral'],
    reason: 'replay() sets `replayed: true` on every later answer, whatever is stored',
  },
  // src/confirm/token.ts
  {
    file: 'src/confirm/token.ts',
    at: 'const secret = kid === null ? undefined : this.#keys.secrets.get(kid);',
    mutators: ['ConditionalExpression'],
    reason: 'no secret is stored under a null key id, so the lookup answers undefined too',
  },
  {
    file: 'src/confirm/token.ts',
    at: "const head = `${PREFIX}.${kid}.${Buffer.from(JSON.stringify(claims), 'utf8').toString('base64url')}`;",
    mutators: ['StringLiteral'],
    reason: 'Buffer.from reads a string as UTF-8 when no encoding is named',
  },
  {
    file: 'src/confirm/token.ts',
    at: `const [, kid = '', payload = '', sig = ''] = parts;`,
    mutators: ['StringLiteral'],
    reason: 'four parts were checked just above, so no default is ever used',
  },
  {
    file: 'src/confirm/token.ts',
    at: `return createHmac('sha256', secret).update(data, 'utf8').digest();`,
    mutators: ['StringLiteral'],
    reason: 'a hash reads a string as UTF-8 when no encoding is named',
  },
  {
    file: 'src/confirm/token.ts',
    at: `typeof c.action === 'string' &&`,
    mutators: ['ConditionalExpression'],
    reason: 'verify compares the action with a string right after, so a non-string never passes',
  },
  {
    file: 'src/confirm/token.ts',
    at: `typeof c.userId === 'string' &&`,
    mutators: ['ConditionalExpression'],
    reason: `verify compares the user with the caller's id right after`,
  },
  {
    file: 'src/confirm/token.ts',
    at: `typeof c.keyId === 'string' &&`,
    mutators: ['ConditionalExpression'],
    reason: `verify compares the key with the caller's key id right after`,
  },
  // src/limits/public-throttle.ts
  {
    file: 'src/limits/public-throttle.ts',
    at: 'const oldest = used[0]?.oldest ?? at;',
    mutators: ['OptionalChaining'],
    reason: 'a refused count always reports its one window, so used[0] is there; the chain narrows the type',
  },
  // src/secrets/key-ring.ts
  {
    file: 'src/secrets/key-ring.ts',
    at: `secrets.set(kid, Buffer.from(secret, 'utf8'));`,
    mutators: ['StringLiteral'],
    reason: 'Buffer.from reads an empty encoding name as UTF-8, its default',
  },
  // src/operations/writes/back-opinion.ts
  {
    file: 'src/operations/writes/back-opinion.ts',
    at: 'return performed(mapBack(placed.data, mapContextOf(ctx), false), placed);',
    mutators: ['BooleanLiteral'],
    reason: 'execute-once sets `replayed` on every answer, first or replayed',
  },
  // src/operations/writes/place-order.ts
  {
    file: 'src/operations/writes/place-order.ts',
    at: 'return performed(mapOrder(placed.data, mapContextOf(ctx, p.lang), false), placed);',
    mutators: ['BooleanLiteral'],
    reason: 'execute-once sets `replayed` on every answer, first or replayed',
  },
  // src/operations/writes/preview-opinion.ts
  {
    file: 'src/operations/writes/preview-opinion.ts',
    at: `if (sideOutcome === null) return { can_publish: false, summary, reason: 'SIDE_REQUIRED' };`,
    mutators: ['all'],
    reason: `a null reason comes only with a side among the topic's outcomes (opinionDecision), so sideOutcome is set here; the check narrows the type`,
  },
  // src/operations/writes/shared.ts
  {
    file: 'src/operations/writes/shared.ts',
    at: '...(ctx.trail !== undefined && { trail: ctx.trail }),',
    mutators: ['ConditionalExpression'],
    reason: 'a trail set to undefined is read as no trail, as when the key is absent',
  },
  // src/operations/writes/rules.ts
  {
    file: 'src/operations/writes/rules.ts',
    at: `const avgPrice = decRatio(stake, units, 6) ?? '';`,
    mutators: ['StringLiteral'],
    reason: 'decRatio is null only for a zero divisor, and units <= 0 is refused above',
  },
  {
    file: 'src/operations/writes/rules.ts',
    at: 'const side = only !== undefined && f.outcomeIds.includes(only) ? only : null;',
    mutators: ['ConditionalExpression'],
    reason: 'a list of ids never includes undefined; the check narrows the type',
  },
  // mappers/decimal.ts
  {
    file: 'mappers/decimal.ts',
    at: 'const decimals = dot < 0 ? 0 : text.length - dot - 1;',
    mutators: ['EqualityOperator'],
    reason: `a number's text never starts with its point, so dot is never 0`,
  },
  {
    file: 'mappers/decimal.ts',
    at: "return dot < 0 ? `${text}.${'0'.repeat(places)}` : `${text}${'0'.repeat(places - decimals)}`;",
    mutators: ['EqualityOperator'],
    reason: `a number's text never starts with its point, so dot is never 0`,
  },
  {
    file: 'mappers/decimal.ts',
    at: `export function decFixed(value: DecimalSource, places: number, mode: RoundingMode = 'half-up'): string {`,
    mutators: ['StringLiteral'],
    reason: `without a mode, big.js rounds half up by the constructor's own default`,
  },
  {
    file: 'mappers/decimal.ts',
    from: `if (typeof value === 'number') {`,
    until: 'const text = toBig(value).toFixed(places, MODES[mode]);',
    mutators: ['all'],
    reason: 'a shortcut only; without it big.js gives the same text (the property test holds them equal)',
  },
  {
    file: 'mappers/decimal.ts',
    at: String.raw`return /^-0\.?0*$/.test(text) ? text.slice(1) : text;`,
    mutators: ['Regex'],
    reason: 'a minus sign can only come first in big.js output, so dropping the anchor changes nothing',
  },
  {
    file: 'mappers/decimal.ts',
    at: `export function decProduct(a: DecimalSource, b: DecimalSource, places: number = 4, mode: RoundingMode = 'half-up'): string {`,
    mutators: ['StringLiteral'],
    reason: `without a mode, big.js rounds half up by the constructor's own default`,
  },
];

/** Line number (1-based) of the one line of `lines` whose trimmed text is `code`, from `start` on. */
function lineOf(lines, code, file, start = 0) {
  const found = [];
  for (let i = start; i < lines.length; i++) if (lines[i].trim() === code) found.push(i + 1);
  if (found.length === 0 || (start === 0 && found.length > 1)) {
    throw new Error(`stryker.ignorers.mjs: ${file} has ${found.length} lines \`${code}\`; update the table`);
  }
  return found[0];
}

/**
 * The table's rows of one file as the comment directives Stryker reads (`Stryker disable
 * next-line …`, `Stryker disable …` / `Stryker restore …`), keyed by the line of the node each
 * one stands before.
 */
function directivesOf(file, code) {
  const lines = code.split('\n');
  const byLine = new Map();
  const add = (line, text) => byLine.set(line, [...(byLine.get(line) ?? []), text]);
  for (const row of EQUIVALENT_MUTANTS) {
    if (row.file !== file) continue;
    const mutators = row.mutators.join(',');
    if (row.at !== undefined) {
      add(lineOf(lines, row.at, file), ` Stryker disable next-line ${mutators}: ${row.reason}`);
    } else {
      const from = lineOf(lines, row.from, file);
      add(from, ` Stryker disable ${mutators}: ${row.reason}`);
      add(lineOf(lines, row.until, file, from), ` Stryker restore ${mutators}`);
    }
  }
  return byLine;
}

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'operation-text', {
    shouldIgnore(path) {
      if (
        path.isObjectProperty() &&
        !path.node.computed &&
        path.node.key.type === 'Identifier' &&
        TEXT_PROPERTIES.has(path.node.key.name)
      ) {
        return 'Operation title or description: documentation text, not behaviour';
      }
      // The call, and the statement that is only that call (which Stryker would empty).
      const call = path.isExpressionStatement() ? path.get('expression') : path;
      if (
        call.isCallExpression() &&
        call.node.callee.type === 'MemberExpression' &&
        call.node.callee.property.type === 'Identifier' &&
        LOG_METHODS.has(call.node.callee.property.name) &&
        call.node.callee.object.type !== 'Identifier'
      ) {
        return 'Log line: read by people, not by the gateway';
      }
      return undefined;
    },
  }),
  // Ignores nothing itself: on entering a file it attaches the table's rows for that file to the
  // syntax tree as the directive comments Stryker already honours, on the outermost node that
  // starts on each row's line (where the comment would have stood), so each row disables only
  // the mutators it names.
  declareValuePlugin(PluginKind.Ignore, 'equivalent', {
    shouldIgnore(path) {
      if (!path.isProgram()) return undefined;
      const { filename, code } = path.hub?.file?.opts?.filename
        ? { filename: path.hub.file.opts.filename, code: path.hub.file.code }
        : { filename: undefined, code: undefined };
      if (filename === undefined || code === undefined) throw new Error('stryker.ignorers.mjs: no file name on the tree');
      const file = relative(process.cwd(), filename).replaceAll('\\', '/');
      const byLine = directivesOf(file, code);
      if (byLine.size === 0) return undefined;
      path.traverse({
        enter(inner) {
          const line = inner.node.loc?.start.line;
          const texts = line === undefined ? undefined : byLine.get(line);
          if (texts === undefined) return;
          byLine.delete(line);
          const comments = texts.map((value) => ({ type: 'CommentLine', value, loc: inner.node.loc }));
          inner.node.leadingComments = [...(inner.node.leadingComments ?? []), ...comments];
        },
      });
      if (byLine.size > 0) throw new Error(`stryker.ignorers.mjs: ${file}: no code starts on lines ${[...byLine.keys()].join(', ')}`);
      return undefined;
    },
  }),
];
