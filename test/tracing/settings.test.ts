/** The OTEL_* variables (src/tracing/settings.ts) as read by the configuration, and tracing's switch. */
import { describe, expect, it } from 'vitest';
import { ConfigError, configFrom } from '../../src/config.ts';
import { samplerOf } from '../../src/tracing/sdk.ts';
import { tracingSettings } from '../../src/tracing/settings.ts';
import { startTracing } from '../../src/tracing/start.ts';

describe('tracing settings', () => {
  it('are off without an exporter endpoint, and startTracing then loads nothing', async () => {
    const config = configFrom({ OTEL_SERVICE_NAME: 'x', OTEL_TRACES_SAMPLER: 'always_on' });
    expect(tracingSettings(config)).toBeNull();
    expect(await startTracing(config)).toBeNull();
  });

  it('post to <endpoint>/v1/traces, or to the traces endpoint as given when set', () => {
    expect(tracingSettings(configFrom({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }))?.tracesUrl).toBe(
      'http://collector:4318/v1/traces',
    );
    const both = configFrom({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://b/api/traces' });
    expect(tracingSettings(both)?.tracesUrl).toBe('https://b/api/traces');
  });

  it('read headers and resource attributes as name=value lists, and default the rest', () => {
    const s = tracingSettings(
      configFrom({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
        OTEL_EXPORTER_OTLP_HEADERS: 'x-honeycomb-team=abc%3D%3D, x-other = 2',
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=prod',
        OTEL_TRACES_SAMPLER_ARG: '0.25',
        OTEL_EXPORTER_OTLP_PROTOCOL: '',
      }),
    );
    expect(s).toEqual({
      tracesUrl: 'http://c:4318/v1/traces',
      protocol: 'http/protobuf',
      headers: { 'x-honeycomb-team': 'abc==', 'x-other': '2' },
      serviceName: 'openpm-gateway',
      resourceAttributes: { 'deployment.environment.name': 'prod' },
      sampler: 'parentbased_always_on',
      ratio: 0.25,
      batchDelayMs: 5_000,
    });
  });

  it('refuse gRPC, a bad sampler and malformed headers, without quoting the headers', () => {
    let err: unknown;
    try {
      configFrom({
        OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
        OTEL_TRACES_SAMPLER: 'sometimes',
        OTEL_EXPORTER_OTLP_HEADERS: 'api-key-without-name',
      });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const text = (err as ConfigError).problems.join('\n');
    expect(text).toMatch(/OTEL_EXPORTER_OTLP_PROTOCOL: .*gRPC is not supported/);
    expect(text).toMatch(/OTEL_TRACES_SAMPLER:/);
    expect(text).toMatch(/OTEL_EXPORTER_OTLP_HEADERS: must be name=value pairs/);
    expect(text).not.toContain('api-key-without-name');
  });

  it('map every sampler name to the SDK sampler of that name', () => {
    expect(samplerOf('always_on', 1).toString()).toBe('AlwaysOnSampler');
    expect(samplerOf('always_off', 1).toString()).toBe('AlwaysOffSampler');
    expect(samplerOf('traceidratio', 0.5).toString()).toBe('TraceIdRatioBased{0.5}');
    expect(samplerOf('parentbased_traceidratio', 0.1).toString()).toContain('root=TraceIdRatioBased{0.1}');
    expect(samplerOf('parentbased_always_off', 1).toString()).toContain('root=AlwaysOffSampler');
    expect(samplerOf('parentbased_always_on', 1).toString()).toContain('root=AlwaysOnSampler');
  });

  it('turn Server-Timing off with SERVER_TIMING=off (on by default)', () => {
    expect(configFrom({}).SERVER_TIMING).toBe('on');
    expect(configFrom({ SERVER_TIMING: 'off' }).SERVER_TIMING).toBe('off');
  });
});
