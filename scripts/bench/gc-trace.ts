/**
 * BENCH_GC_TRACE=1: V8's own account of each gateway's full collections, with the benchmark's
 * timed runs marked between them, in one text file. The benchmark counts a gateway's full
 * collections round by round from its metrics; this says why each one came when it did: the
 * reason marking started, and the old generation's size and limit at that moment.
 */
import { appendFileSync } from 'node:fs';

/** What makes V8 print each marking's start (reason, size, limit) and each full collection. */
export const GC_TRACE_FLAGS = ['--trace-gc', '--trace-incremental-marking'];

/** The lines kept of that output; the scavenges' and the marking steps' are left out. */
const KEPT = /\[IncrementalMarking\] Start \(|Mark-Compact/;
/** V8's `[pid:isolate:thread]` prefix, which says nothing the process's name does not. */
const PREFIX = /^\[\d+:0x[0-9a-f]+(?::\d+)?\]\s*/;

export class GcTrace {
  readonly #file: string;
  readonly #started: number;
  /** A line split across output chunks, per process, until its end arrives. */
  readonly #partial = new Map<string, string>();

  constructor(file: string, started: number) {
    this.#file = file;
    this.#started = started;
  }

  get file(): string {
    return this.#file;
  }

  /** A chunk of a process's standard output. */
  output(name: string, chunk: string): void {
    const text = (this.#partial.get(name) ?? '') + chunk;
    const end = text.lastIndexOf('\n');
    this.#partial.set(name, text.slice(end + 1));
    for (const line of text.slice(0, end + 1).split('\n')) {
      if (KEPT.test(line)) this.#write(`${name}: ${line.replace(PREFIX, '')}`);
    }
  }

  /** A mark of the benchmark's own: which run begins or ends. */
  mark(text: string): void {
    this.#write(`-- ${text}`);
  }

  #write(line: string): void {
    appendFileSync(this.#file, `${((Date.now() - this.#started) / 1000).toFixed(2).padStart(8)} s  ${line}\n`);
  }
}
