/**
 * The standard OpenTelemetry variables the gateway reads (docs/operations.md#tracing), as part of
 * the one configuration schema (src/config.ts spreads TRACING_ENV into it), and what they mean
 * once validated. Nothing here loads OpenTelemetry: with no exporter endpoint configured,
 * tracing stays off and its packages are never imported.
 */
import { z } from 'zod';

/** OTLP over HTTP: protobuf (the specification's default) or JSON. gRPC is not shipped. */
export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json'] as const;
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];

/** The samplers the specification names, except the Jaeger remote one. */
export const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;
export type SamplerName = (typeof SAMPLERS)[number];

/** A chart renders an unused setting as an empty value: the same as unset. */
const blankIsUnset = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

const optionalUrl = z.preprocess(blankIsUnset, z.url().optional());

/**
 * `name=value,name=value`, values percent-decoded, as the OTLP exporter specification writes
 * headers and resource attributes. A refusal never quotes the text: headers carry vendor keys.
 */
const pairList = z.preprocess(
  blankIsUnset,
  z
    .string()
    .optional()
    .transform((text, ctx): Record<string, string> => {
      const out: Record<string, string> = {};
      if (text === undefined) return out;
      for (const item of text.split(',')) {
        if (item.trim() === '') continue;
        const eq = item.indexOf('=');
        const name = eq === -1 ? '' : item.slice(0, eq).trim();
        let value: string;
        try {
          value = decodeURIComponent(item.slice(eq + 1).trim());
        } catch {
          value = '';
          ctx.addIssue({ code: 'custom', message: 'a value is not validly percent-encoded' });
        }
        if (name === '') {
          ctx.addIssue({ code: 'custom', message: 'must be name=value pairs separated by commas' });
          return z.NEVER;
        }
        out[name] = value;
      }
      return out;
    }),
);

export const TRACING_ENV = {
  /** Base URL of an OTLP/HTTP receiver (`/v1/traces` is appended). Unset, with the next one unset too: tracing is off. */
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl,
  /** Full URL traces are posted to; wins over OTEL_EXPORTER_OTLP_ENDPOINT. */
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: optionalUrl,
  OTEL_EXPORTER_OTLP_PROTOCOL: z.preprocess(
    blankIsUnset,
    z.enum(OTLP_PROTOCOLS, { message: `must be one of ${OTLP_PROTOCOLS.join(', ')} (gRPC is not supported)` }).default('http/protobuf'),
  ),
  /** Headers sent to the receiver (a vendor's API key): `name=value,…`. Treat as a secret. */
  OTEL_EXPORTER_OTLP_HEADERS: pairList,
  OTEL_SERVICE_NAME: z.preprocess(blankIsUnset, z.string().trim().min(1).default('openpm-gateway')),
  /** Extra resource attributes, `name=value,…` (`deployment.environment.name=prod`). */
  OTEL_RESOURCE_ATTRIBUTES: pairList,
  OTEL_TRACES_SAMPLER: z.preprocess(blankIsUnset, z.enum(SAMPLERS).default('parentbased_always_on')),
  /** The ratio of the `traceidratio` samplers, 0 to 1 (default 1). */
  OTEL_TRACES_SAMPLER_ARG: z.preprocess(blankIsUnset, z.coerce.number().min(0).max(1).optional()),
  /** Longest a finished span waits before its batch is exported (ms). */
  OTEL_BSP_SCHEDULE_DELAY: z.preprocess(blankIsUnset, z.coerce.number().int().positive().max(60_000).default(5_000)),
};

type TracingEnv = z.infer<z.ZodObject<typeof TRACING_ENV>>;

export interface TracingSettings {
  /** Where spans are posted. */
  tracesUrl: string;
  protocol: OtlpProtocol;
  headers: Record<string, string>;
  serviceName: string;
  resourceAttributes: Record<string, string>;
  sampler: SamplerName;
  ratio: number;
  batchDelayMs: number;
}

/** What to export where, or null when no endpoint is configured (tracing off). */
export function tracingSettings(env: TracingEnv): TracingSettings | null {
  const tracesUrl = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? tracesUnder(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  if (tracesUrl === undefined) return null;
  return {
    tracesUrl,
    protocol: env.OTEL_EXPORTER_OTLP_PROTOCOL,
    headers: env.OTEL_EXPORTER_OTLP_HEADERS,
    serviceName: env.OTEL_SERVICE_NAME,
    resourceAttributes: env.OTEL_RESOURCE_ATTRIBUTES,
    sampler: env.OTEL_TRACES_SAMPLER,
    ratio: env.OTEL_TRACES_SAMPLER_ARG ?? 1,
    batchDelayMs: env.OTEL_BSP_SCHEDULE_DELAY,
  };
}

/** The signal path under a base endpoint, as the OTLP exporter specification joins them. */
function tracesUnder(base: string | undefined): string | undefined {
  if (base === undefined) return undefined;
  return `${base.replace(/\/+$/, '')}/v1/traces`;
}
