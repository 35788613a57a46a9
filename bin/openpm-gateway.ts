#!/usr/bin/env node
/**
 * openpm-gateway: the gateway's command line (docs/operations.md).
 *
 *   openpm-gateway serve                        start the gateway (as `npm start`, with node's flags
 *                                               from NODE_OPTIONS only)
 *   openpm-gateway kill-switch status|on|off|writes-off [--reason ...] [--by ...]
 *                                               [--admin URL] [--token TOKEN]
 *   openpm-gateway sandbox reset [--admin URL]  the built-in sandbox back to its seed
 *   openpm-gateway audit [--user ID] [--key KEY_ID] [--action A] [--limit N]
 *                                               the fleet's latest audit records (docs/audit.md)
 *
 * The kill-switch commands talk to a replica's admin server; the state lives in the shared
 * store, so one replica is enough to flip the whole fleet.
 */
import { hostname, userInfo } from 'node:os';
import { parseArgs } from 'node:util';

const HELP = `Usage:
  openpm-gateway serve
      Start the gateway (configuration from the environment; as npm start, but node's
      flags come from NODE_OPTIONS only: npm start and the image also give
      --min-semi-space-size=16, which Node refuses there).

  openpm-gateway kill-switch <status|on|off|writes-off> [options]
      status       print the current state
      on           refuse every REST and MCP request with 503 SERVICE_DISABLED (mode all)
      writes-off   refuse only the write operations; reads keep working (mode writes)
      off          serve normally again
    Options:
      --reason TEXT   why (required for on and writes-off; logged and stored with the state)
      --by NAME       who (default: $USER@hostname)
      --admin URL     admin server of any replica (default: $ADMIN_URL or http://127.0.0.1:9090)
      --token TOKEN   admin token (default: $ADMIN_TOKEN, the first when it lists several)
      --timeout MS    give up after MS milliseconds (default 5000)
    Prints the resulting state as JSON on stdout.

  openpm-gateway sandbox reset [--admin URL] [--token TOKEN]
      Put the built-in sandbox of \`npm start\` back to its seeded world (orders, opinions,
      balances, the clock), without a restart. Only a gateway running the sandbox has it.

  openpm-gateway audit [--user ID] [--key KEY_ID] [--action ACTION] [--limit N] [--admin URL] [--token TOKEN]
      Print the latest audit records, newest first, as JSON (docs/audit.md): executions of
      place_order, publish_opinion and back_opinion, and kill-switch changes. With Redis they
      are the whole fleet's; without it, the last 1000 of the replica asked.
    Options:
      --user ID       only this user's
      --key KEY_ID    only this API key's (its key id, never the key)
      --action NAME   place_order, publish_opinion, back_opinion or kill_switch
      --limit N       at most N records (1 to 1000, default 50)

  openpm-gateway --help

Exit status: 0 on success, 1 when the admin server refused or could not be reached,
2 on a usage error.`;

const ACTIONS = { on: 'all', off: 'off', 'writes-off': 'writes' } as const;
type Action = keyof typeof ACTIONS | 'status';

class UsageError extends Error {}
class CommandError extends Error {}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      reason: { type: 'string' },
      by: { type: 'string' },
      admin: { type: 'string' },
      token: { type: 'string' },
      timeout: { type: 'string' },
      user: { type: 'string' },
      key: { type: 'string' },
      action: { type: 'string' },
      limit: { type: 'string' },
    },
  });
  const [command, action, ...rest] = positionals;
  if (values.help === true || command === undefined || command === 'help') {
    process.stdout.write(`${HELP}\n`);
    return;
  }
  if (command === 'serve') {
    if (action !== undefined) throw new UsageError(`serve takes no arguments (got ${action})`);
    await import('../src/server.ts');
    return;
  }
  const adminUrl = (values.admin ?? process.env['ADMIN_URL'] ?? 'http://127.0.0.1:9090').replace(/\/+$/, '');
  try {
    new URL(adminUrl);
  } catch {
    throw new UsageError(`--admin: not a URL: ${adminUrl}`);
  }
  // While ADMIN_TOKEN is rotated it lists several, the new one first.
  const token = values.token ?? process.env['ADMIN_TOKEN']?.split(',')[0]?.trim();
  const timeoutMs = values.timeout === undefined ? 5_000 : Number(values.timeout);
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new UsageError('--timeout: a positive number of milliseconds');

  if (command === 'sandbox') {
    if (action !== 'reset' || rest.length > 0) throw new UsageError('sandbox takes one action: reset');
    const result = await call(adminUrl, '/sandbox/reset', 'POST', {}, token, timeoutMs);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  if (command === 'audit') {
    if (action !== undefined) throw new UsageError(`audit takes options only (got ${action})`);
    const query = new URLSearchParams();
    if (values.user !== undefined) query.set('user_id', values.user);
    if (values.key !== undefined) query.set('key_id', values.key);
    if (values.action !== undefined) query.set('action', values.action);
    if (values.limit !== undefined) {
      const limit = Number(values.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new UsageError('--limit: a whole number from 1 to 1000');
      query.set('limit', String(limit));
    }
    const q = query.toString();
    const result = await call(adminUrl, `/audit${q === '' ? '' : `?${q}`}`, 'GET', undefined, token, timeoutMs);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  if (command !== 'kill-switch') throw new UsageError(`unknown command ${JSON.stringify(command)}`);
  if (action === undefined) throw new UsageError('kill-switch needs one of: status, on, off, writes-off');
  if (!isAction(action)) throw new UsageError(`unknown kill-switch action ${JSON.stringify(action)} (status, on, off, writes-off)`);
  if (rest.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])} (quote a --reason with spaces)`);

  let body: { mode: string; reason: string; by: string } | undefined;
  if (action !== 'status') {
    const reason = values.reason?.trim() || (action === 'off' ? 'turned off with the CLI' : undefined);
    if (reason === undefined) throw new UsageError(`kill-switch ${action} needs --reason "why"`);
    body = { mode: ACTIONS[action], reason, by: values.by?.trim() || defaultBy() };
  }

  const state = await call(adminUrl, '/kill-switch', body === undefined ? 'GET' : 'PUT', body, token, timeoutMs);
  process.stdout.write(`${JSON.stringify(state, null, 2)}\n`);
}

async function call(
  adminUrl: string,
  path: '/kill-switch' | '/sandbox/reset' | `/audit${string}`,
  method: 'GET' | 'PUT' | 'POST',
  body: unknown,
  token: string | undefined,
  timeoutMs: number,
): Promise<unknown> {
  const url = `${adminUrl}${path}`;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token !== undefined && token !== '') headers['authorization'] = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const why =
      (err as Error).name === 'TimeoutError'
        ? `no answer within ${timeoutMs} ms`
        : (cause?.code ?? cause?.message ?? (err as Error).message);
    throw new CommandError(`cannot reach the admin server at ${adminUrl} (${why}); set --admin or ADMIN_URL`);
  }
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!res.ok) {
    const error = (parsed as { error?: { code?: string; message?: string } } | undefined)?.error;
    const what = error !== undefined ? `${error.code ?? 'ERROR'}: ${error.message ?? ''}` : text.slice(0, 200);
    const hint =
      res.status === 401
        ? ' (pass --token or set ADMIN_TOKEN)'
        : res.status === 404
          ? path === '/sandbox/reset'
            ? ' (is --admin the admin port of a gateway running the built-in sandbox?)'
            : ' (is --admin the admin port, not the public one?)'
          : '';
    throw new CommandError(`${method} ${url} failed with HTTP ${res.status}: ${what}${hint}`);
  }
  if (parsed === undefined) throw new CommandError(`${method} ${url}: the answer is not JSON`);
  return parsed;
}

function isAction(s: string): s is Action {
  return s === 'status' || Object.hasOwn(ACTIONS, s);
}

function defaultBy(): string {
  let user = process.env['USER'] ?? process.env['USERNAME'];
  if (user === undefined) {
    try {
      user = userInfo().username;
    } catch {
      user = 'unknown';
    }
  }
  return `${user}@${hostname()}`;
}

try {
  await main(process.argv.slice(2));
} catch (err) {
  if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') === true) {
    process.stderr.write(`openpm-gateway: ${(err as Error).message}\nRun openpm-gateway --help for usage.\n`);
    process.exitCode = 2;
  } else if (err instanceof CommandError) {
    process.stderr.write(`openpm-gateway: ${err.message}\n`);
    process.exitCode = 1;
  } else {
    throw err;
  }
}
