/**
 * What leaves the process in a span is scrubbed the way log lines are (src/http/logging.ts):
 * no API key, confirm token, cursor or secret header reaches an exporter. The instrumentations
 * record URLs (`url.full`, `url.query`, `http.target`) and, when asked to, headers; operations
 * record only names, codes and the key id. Every exported span passes through `redactSpan`
 * (the exporter wrapper in ./sdk.ts), so attributes set late, events and links are covered too.
 */
import type { Attributes, AttributeValue, Link } from '@opentelemetry/api';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace';
import { REDACTED, redactText, redactUrl } from '../http/logging.ts';

/** Attributes holding a URL or a piece of one: judged part by part, as the access log's URL is. */
const URL_ATTRIBUTES: ReadonlySet<string> = new Set([
  'url.full',
  'url.path',
  'url.query',
  'url.original',
  'http.url',
  'http.target',
  'http.route',
]);

/**
 * Query parameters that carry a pagination cursor: opaque, but a bearer of position (and a
 * backend's cursor may name data), so kept out like the logs keep keys out.
 */
const CURSOR_PARAM_RE = /([?&;](?:next_)?cursor=)[^&;#\s]*/gi;

/** A header attribute (`http.request.header.<name>`) whose value is a credential. */
const SECRET_HEADER_RE =
  /^http\.(?:request|response)\.header\.(?:authorization|proxy-authorization|cookie|set-cookie|x-service-token|x-api-key)$/i;

/** A URL or a part of one with keys, tokens, secret parameters and cursors replaced. */
export function redactTracedUrl(value: string, key: string): string {
  // `url.query` is the part after `?`, without it: judged as a query all the same.
  const bare = key === 'url.query' && !value.startsWith('?');
  const text = bare ? `?${value}` : value;
  const out = redactUrl(redactText(text)).replace(CURSOR_PARAM_RE, `$1${REDACTED}`);
  return bare ? out.slice(1) : out;
}

function redactValue(key: string, value: AttributeValue | undefined): AttributeValue | undefined {
  if (typeof value === 'string') return URL_ATTRIBUTES.has(key) ? redactTracedUrl(value, key) : redactText(value);
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const r = typeof v === 'string' ? redactText(v) : v;
      if (r !== v) changed = true;
      return r;
    });
    return changed ? (out as AttributeValue) : value;
  }
  return value;
}

/** The attributes with secrets removed; the same object when there was none. */
export function redactAttributes(attributes: Attributes): Attributes {
  let copy: Attributes | null = null;
  for (const key of Object.keys(attributes)) {
    const value = attributes[key];
    if (SECRET_HEADER_RE.test(key)) {
      copy ??= { ...attributes };
      delete copy[key];
      continue;
    }
    const redacted = redactValue(key, value);
    if (redacted === value) continue;
    copy ??= { ...attributes };
    copy[key] = redacted;
  }
  return copy ?? attributes;
}

function redactEvent(event: TimedEvent): TimedEvent {
  const attributes = event.attributes === undefined ? undefined : redactAttributes(event.attributes);
  const name = redactText(event.name);
  if (attributes === event.attributes && name === event.name) return event;
  return { ...event, name, ...(attributes === undefined ? {} : { attributes }) };
}

function redactLink(link: Link): Link {
  const attributes = link.attributes === undefined ? undefined : redactAttributes(link.attributes);
  return attributes === link.attributes ? link : { ...link, ...(attributes === undefined ? {} : { attributes }) };
}

/** The span as it may leave the process; the same span when it holds nothing secret. */
export function redactSpan(span: ReadableSpan): ReadableSpan {
  const name = redactText(span.name);
  const attributes = redactAttributes(span.attributes);
  const events = span.events.map(redactEvent);
  const links = span.links.map(redactLink);
  const message = span.status.message === undefined ? undefined : redactText(span.status.message);
  const same =
    name === span.name &&
    attributes === span.attributes &&
    events.every((e, i) => e === span.events[i]) &&
    links.every((l, i) => l === span.links[i]) &&
    message === span.status.message;
  if (same) return span;
  // A plain copy: the SDK's span object keeps its fields behind its own class.
  return {
    name,
    kind: span.kind,
    spanContext: () => span.spanContext(),
    ...(span.parentSpanContext === undefined ? {} : { parentSpanContext: span.parentSpanContext }),
    startTime: span.startTime,
    endTime: span.endTime,
    status: message === undefined ? { code: span.status.code } : { code: span.status.code, message },
    attributes,
    links,
    events,
    duration: span.duration,
    ended: span.ended,
    resource: span.resource,
    instrumentationScope: span.instrumentationScope,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
  };
}
