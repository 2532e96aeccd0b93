// A span of time as OpenAI writes it in x-ratelimit-reset-requests and x-ratelimit-reset-tokens ("1s", "6m0s",
// "59.5s", "20ms"): Go's time.Duration text, which clients parse with a Go-style duration parser (go-openai uses
// time.ParseDuration). Whole milliseconds are all a rate limit needs, so smaller units never appear.

/** `ms` (rounded to a whole millisecond, negative as 0) as OpenAI's duration text. */
export function openAiDuration(ms: number): string {
  const whole = Math.max(0, Math.round(ms));
  if (whole === 0) return '0s';
  if (whole < 1000) return `${whole}ms`;
  const hours = Math.floor(whole / 3_600_000);
  const minutes = Math.floor((whole % 3_600_000) / 60_000);
  const millis = whole % 60_000;
  const fraction =
    millis % 1000 === 0
      ? ''
      : `.${String(millis % 1000)
          .padStart(3, '0')
          .replace(/0+$/, '')}`;
  const seconds = `${Math.floor(millis / 1000)}${fraction}s`;
  // As Go: hours only when there are any, minutes whenever a larger unit is written (6m0s, 1h0m0s).
  return `${hours > 0 ? `${hours}h` : ''}${hours > 0 || minutes > 0 ? `${minutes}m` : ''}${seconds}`;
}
