// The sampler the standard variables name (OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG), from the SDK's samplers,
// with the SDK's defaults: parentbased_always_on when unset, a ratio of 1 when the argument is missing or out of
// range, each mistake reported (the SDK builds this only inside its own tracer provider, which the gateway does not
// run on the request's thread: see recording-tracer.ts).
import { diag } from '@opentelemetry/api';
import { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, TraceIdRatioBasedSampler, type Sampler } from '@opentelemetry/sdk-trace-base';

const DEFAULT_SAMPLER = 'parentbased_always_on';

export function samplerFromEnv(env: NodeJS.ProcessEnv): Sampler {
  const name = env.OTEL_TRACES_SAMPLER?.trim().toLowerCase() || DEFAULT_SAMPLER;
  switch (name) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratioFromEnv(env));
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratioFromEnv(env)) });
    default:
      diag.error(`OTEL_TRACES_SAMPLER value "${name}" invalid, defaulting to "${DEFAULT_SAMPLER}".`);
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

function ratioFromEnv(env: NodeJS.ProcessEnv): number {
  const raw = env.OTEL_TRACES_SAMPLER_ARG?.trim();
  const ratio = raw ? Number(raw) : NaN;
  if (!raw || Number.isNaN(ratio)) {
    diag.error(`OTEL_TRACES_SAMPLER_ARG is blank or not a number, defaulting to 1.`);
    return 1;
  }
  if (ratio < 0 || ratio > 1) {
    diag.error(`OTEL_TRACES_SAMPLER_ARG=${ratio} was given, but it is out of range ([0..1]), defaulting to 1.`);
    return 1;
  }
  return ratio;
}
