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

  constructor(file: string, started: number) {
    this.#file = file;
    this.#started = started;
  }

  get file(): string {
    return this.#file;
  }

  /** A line of a process's standard output: kept if V8 printed it of a full collection. */
  line(name: string, line: string): void {
    if (KEPT.test(line)) this.#write(`${name}: ${line.replace(PREFIX, '')}`);
  }

  /** A mark of the benchmark's own: which run begins or ends. */
  mark(text: string): void {
    this.#write(`-- ${text}`);
  }

  #write(line: string): void {
    appendFileSync(this.#file, `${((Date.now() - this.#started) / 1000).toFixed(2).padStart(8)} s  ${line}\n`);
  }
}
