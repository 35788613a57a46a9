/**
 * BENCH_GC_TRACE: V8's own account of each gateway's collections, with the benchmark's timed
 * runs marked between them, in one text file. The benchmark counts a gateway's full collections
 * round by round from its metrics; the trace says why each one came when it did.
 *
 * - `1` (collections): each marking's start (reason, old generation's size and limit) and each
 *   full collection.
 * - `promotion`: every collection with what it moved to the old generation (V8's name=value
 *   line, cut to the fields below), and each allocation site V8 starts or stops allocating
 *   straight into the old generation (pretenuring). What fills an old generation is either
 *   of the two; the totals per gateway after the warm-up say which.
 */
import { appendFileSync } from 'node:fs';

export type GcTraceMode = 'collections' | 'promotion';

/** BENCH_GC_TRACE's value as a mode, or none. */
export function gcTraceMode(value: string | undefined): GcTraceMode | undefined {
  if (value === '1' || value === 'collections') return 'collections';
  if (value === 'promotion') return 'promotion';
  return undefined;
}

/** The node flags that make V8 print what a mode keeps. */
export const GC_TRACE_FLAGS: Readonly<Record<GcTraceMode, readonly string[]>> = {
  collections: ['--trace-gc', '--trace-incremental-marking'],
  // `--trace-pretenuring` alone prints nothing of the decisions; the statistics flag does.
  promotion: ['--trace-gc-nvp', '--trace-pretenuring-statistics'],
};

/** Of the collections mode's output, the lines kept; the scavenges' and the marking steps' are left out. */
const KEPT = /\[IncrementalMarking\] Start \(|Mark-Compact/;
/** V8's `[pid:isolate:thread]` prefix, which says nothing the process's name does not. */
const PREFIX = /^\[\d+:0x[0-9a-f]+(?::\d+)?\]\s*/;
/** The fields of a `--trace-gc-nvp` line kept: the kind, the pause, and what moved where. */
const NVP_FIELDS = [
  'gc',
  'reduce_memory',
  'pause',
  'allocated',
  'promoted',
  'new_space_survived',
  'promotion_rate',
  'end_object_size',
  'new_space_capacity',
  'old_gen_allocation_limit',
] as const;
/** A site's decision changing: `(created, found, ratio) (…) maybe tenure => tenure`. */
const DECISION = /pretenuring: AllocationSite\(0x[0-9a-f]+\).*\) ([a-z' ]+?) => ([a-z' ]+?)\s*$/;
/** V8 deoptimising every site it had thought of tenuring, which also costs recompilation. */
const DEOPT_ALL = /pretenuring: .*deopt_maybe_tenured=1/;

/** What one process's collections did from the first mark on (the timed runs, after the warm-up). */
export interface PromotionTotals {
  scavenges: number;
  fullCollections: number;
  /** Bytes the scavenges moved to the old generation. */
  promotedBytes: number;
  /** Sites V8 began allocating straight into the old generation. */
  tenured: number;
  /** Sites it stopped so allocating. */
  untenured: number;
}

const emptyTotals = (): PromotionTotals => ({ scavenges: 0, fullCollections: 0, promotedBytes: 0, tenured: 0, untenured: 0 });

export class GcTrace {
  readonly #file: string;
  readonly #started: number;
  readonly #mode: GcTraceMode;
  readonly #totals = new Map<string, PromotionTotals>();
  #marked = false;

  constructor(file: string, started: number, mode: GcTraceMode = 'collections') {
    this.#file = file;
    this.#started = started;
    this.#mode = mode;
  }

  get file(): string {
    return this.#file;
  }

  get mode(): GcTraceMode {
    return this.#mode;
  }

  /** A line of a process's standard output, kept if the mode keeps it. */
  line(name: string, line: string): void {
    const text = line.replace(PREFIX, '');
    if (this.#mode === 'collections') {
      if (KEPT.test(text)) this.#write(`${name}: ${text}`);
      return;
    }
    if (text.includes(' gc=')) this.#collection(name, text);
    else this.#pretenuring(name, text);
  }

  /** A mark of the benchmark's own: which run begins or ends. From the first, totals count. */
  mark(text: string): void {
    this.#marked = true;
    this.#write(`-- ${text}`);
  }

  /** Per process, what its collections did since the first mark (promotion mode). */
  totals(): ReadonlyMap<string, PromotionTotals> {
    return this.#totals;
  }

  #collection(name: string, text: string): void {
    const fields = new Map<string, string>();
    for (const m of text.matchAll(/(\w+)=(\S+)/g)) fields.set(m[1] ?? '', m[2] ?? '');
    const kind = fields.get('gc');
    const when = /^(\d+) ms:/.exec(text)?.[1];
    this.#write(
      `${name}: ${when ?? '?'} ms: ${NVP_FIELDS.filter((f) => fields.has(f))
        .map((f) => `${f}=${fields.get(f)}`)
        .join(' ')}`,
    );
    if (!this.#marked) return;
    const t = this.#of(name);
    // V8 names a scavenge `s` and a full (mark-compact) collection `mc`.
    if (kind === 's') {
      t.scavenges += 1;
      t.promotedBytes += Number(fields.get('promoted') ?? 0) || 0;
    } else if (kind === 'mc') t.fullCollections += 1;
  }

  #pretenuring(name: string, text: string): void {
    const decision = DECISION.exec(text);
    if (decision !== null) {
      const [, from, to] = decision;
      if (from === to || (from !== 'tenure' && to !== 'tenure')) return;
      this.#write(`${name}: ${text}`);
      if (!this.#marked) return;
      if (to === 'tenure') this.#of(name).tenured += 1;
      else this.#of(name).untenured += 1;
    } else if (DEOPT_ALL.test(text)) this.#write(`${name}: ${text}`);
  }

  #of(name: string): PromotionTotals {
    let t = this.#totals.get(name);
    if (t === undefined) {
      t = emptyTotals();
      this.#totals.set(name, t);
    }
    return t;
  }

  #write(line: string): void {
    appendFileSync(this.#file, `${((Date.now() - this.#started) / 1000).toFixed(2).padStart(8)} s  ${line}\n`);
  }
}
