/**
 * The exporter every span passes through on its way out: scrubbed of secrets (./redact.ts), and
 * with the HTTP conventions' status rule applied to spans an instrumentation marked ERROR for an
 * answer below 500 (@fastify/otel marks any refused request so): a 4xx is the caller's doing, so
 * a server-side span of it stays UNSET, as the HTTP server span does. Client spans keep theirs.
 */
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';
import { redactSpan } from './redact.ts';

/** The span with the 5xx-only ERROR rule applied; the same span when it already holds. */
export function settleStatus(span: ReadableSpan): ReadableSpan {
  const status = span.attributes['http.response.status_code'];
  if (span.status.code !== SpanStatusCode.ERROR || span.kind === SpanKind.CLIENT || typeof status !== 'number' || status >= 500)
    return span;
  // The SDK's span object will not take UNSET once set: a copy that reads through to it.
  return Object.create(span, { status: { value: { code: SpanStatusCode.UNSET }, enumerable: true } }) as ReadableSpan;
}

export class RedactingExporter implements SpanExporter {
  readonly #inner: SpanExporter;
  constructor(inner: SpanExporter) {
    this.#inner = inner;
  }
  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.#inner.export(
      spans.map((s) => redactSpan(settleStatus(s))),
      done,
    );
  }
  shutdown(): Promise<void> {
    return this.#inner.shutdown();
  }
  forceFlush(): Promise<void> {
    return this.#inner.forceFlush?.() ?? Promise.resolve();
  }
}
