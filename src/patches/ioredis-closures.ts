/**
 * Keeps the closures ioredis makes for each command in the young generation.
 *
 * V8's parser marks a function literal assigned straight to a property (`obj.f = () => …`) as
 * likely long-lived, and until TurboFan optimises the function that creates it (the interpreter,
 * Sparkplug and Maglev all honour the mark), every such closure is allocated in the old
 * generation. ioredis 5 makes one per command (`this.reject = (err) => …` in
 * `Command#initPromise`) and one more per script call (in the command class of each `Script`).
 * Each of those closures holds, through its context, the command, its promise and so the request
 * awaiting it; an old object is a root of every scavenge until a full collection, so each
 * request's objects outlive their request and are promoted. That was the Redis gateway's heavy
 * promotion of docs/performance.md (change 28): megabytes a second at start-up, and for as long
 * as ioredis' code stayed below TurboFan.
 *
 * The two methods below are ioredis' own, with the closure returned from a helper instead
 * (a closure returned from a call is allocated young). They replace ioredis' only when its
 * source is the one they were written from (a fingerprint of each); another version is left as
 * it is, and the caller is told why. In Cluster mode `Cluster#sendCommand` stores a third such
 * literal per command; that long method is left as ioredis has it (docs/performance.md, change 28).
 */
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Command } from 'ioredis';
import { fingerprint, isReplacement, markReplacement, originalOf, type PatchResult, type Replaceable } from './replaced.ts';

/** The parts of an ioredis Command the replacement touches, private ones included. */
interface CommandInternals {
  name: string;
  args: unknown[];
  transformed: boolean;
  errorStack?: { stack: string };
  callback?: unknown;
  resolve: (result: unknown) => void;
  reject: (err: Error) => void;
  promise: Promise<unknown>;
  stringifyArguments(): void;
  _convertValue(resolve: (value: unknown) => void): (result: unknown) => void;
  _clearTimers(): void;
}

interface CommandStatics {
  _transformer: { argument: Record<string, ((args: unknown[]) => unknown[]) | undefined> };
  prototype: { initPromise(this: CommandInternals): void };
}

/** ioredis' Script (built/Script.js), whose constructor makes the script's command class. */
interface ScriptModule {
  default: new (lua: string, numberOfKeys?: number | null, keyPrefix?: string, readOnly?: boolean) => { sha: string; Command: unknown };
}

/**
 * SHA-256 of the source of each replaced part, in the ioredis the replacements were written from
 * (5.11.1). Another ioredis keeps its own code until the replacements are re-read against it.
 */
const FINGERPRINTS = {
  initPromise: '413f4e1bc9ae063414349b80e2c93b494e99f884943feee5759f4a4eb044cab5',
  Script: 'a9e9ca0847dbe2d746c06479332300d95f701c647da52c766de2f8181d4fa62d',
} as const;

const requireHere = createRequire(import.meta.url);
const ioredisMain = requireHere.resolve('ioredis');
const requireIoredis = createRequire(ioredisMain);
const commandDir = dirname(requireIoredis.resolve('./Command.js'));

/** The two parts as ioredis has them now (replaced or not). */
function parts(): Record<keyof typeof FINGERPRINTS, Replaceable> {
  return {
    initPromise: (Command as unknown as CommandStatics).prototype.initPromise,
    Script: (requireIoredis('./Script.js') as ScriptModule).default,
  };
}

/** The parts of the installed ioredis whose source differs from the one the replacements were written from. */
export function mismatches(): (keyof typeof FINGERPRINTS)[] {
  const now = parts();
  return (Object.keys(FINGERPRINTS) as (keyof typeof FINGERPRINTS)[]).filter((part) => {
    return fingerprint(originalOf(now[part]).toString()) !== FINGERPRINTS[part];
  });
}

/**
 * Applies both replacements, once per process (ioredis is loaded once, whatever loads this module);
 * says whether they are in place.
 */
export function keepCommandClosuresYoung(): PatchResult {
  const { initPromise, Script } = parts();
  if (isReplacement(initPromise) && isReplacement(Script)) return { applied: true };
  const differ = mismatches();
  if (differ.length > 0) return { applied: false, reason: `ioredis' ${differ.join(' and ')} changed since 5.11.1; its own code is used` };
  replaceInitPromise();
  replaceScript();
  return { applied: true };
}

function replaceInitPromise(): void {
  const statics = Command as unknown as CommandStatics;
  const { optimizeErrorStack } = requireIoredis('./utils/index.js') as {
    optimizeErrorStack(err: Error, friendlyStack: string, filterPath: string): Error;
  };
  const asCallback = (requireIoredis('standard-as-callback') as { default: (p: Promise<unknown>, cb: unknown) => Promise<unknown> })
    .default;

  const rejecter = (command: CommandInternals, reject: (err: Error) => void) => (err: Error) => {
    command._clearTimers();
    if (command.errorStack) reject(optimizeErrorStack(err, command.errorStack.stack, commandDir));
    else reject(err);
  };

  const original = statics.prototype.initPromise;
  statics.prototype.initPromise = function initPromise(this: CommandInternals): void {
    const promise = new Promise((resolve, reject) => {
      if (!this.transformed) {
        this.transformed = true;
        const transformer = statics._transformer.argument[this.name];
        if (transformer) this.args = transformer(this.args);
        this.stringifyArguments();
      }
      this.resolve = this._convertValue(resolve);
      // Not `this.reject = (err) => …`: that literal is the closure V8 allocates old.
      this.reject = rejecter(this, reject);
    });
    this.promise = asCallback(promise, this.callback);
  };
  markReplacement(statics.prototype.initPromise, original);
}

function replaceScript(): void {
  const module = requireIoredis('./Script.js') as ScriptModule;
  const Original = module.default;

  const scriptRejecter =
    (command: CommandInternals, socket: object, loaded: WeakSet<object>, own: (err: Error) => void) => (err: Error) => {
      if (err.message.indexOf('NOSCRIPT') !== -1) loaded.delete(socket);
      own.call(command, err);
    };

  // The first call on a connection sends the body (EVAL); later ones its digest (EVALSHA). A
  // NOSCRIPT answer (the server lost its scripts) makes the next call on that connection an
  // EVAL again; ioredis' execute() resends the failed call, as before.
  class Script extends Original {
    constructor(lua: string, numberOfKeys: number | null = null, keyPrefix = '', readOnly = false) {
      super(lua, numberOfKeys, keyPrefix, readOnly);
      const sha = this.sha;
      const loaded = new WeakSet<object>();
      class ScriptCommand extends Command {
        override toWritable(socket: object): string | Buffer {
          const self = this as unknown as CommandInternals;
          self.reject = scriptRejecter(self, socket, loaded, self.reject); // a returned closure: young
          if (!loaded.has(socket)) {
            loaded.add(socket);
            this.name = 'eval';
            this.args[0] = lua;
          } else if (this.name === 'eval') {
            this.name = 'evalsha';
            this.args[0] = sha;
          }
          return super.toWritable(socket);
        }
      }
      this.Command = ScriptCommand;
    }
  }
  markReplacement(Script, Original);
  module.default = Script;
}
