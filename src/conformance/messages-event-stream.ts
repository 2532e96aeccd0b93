// The conformance check of an Anthropic Messages event stream (POST /messages with stream): named events whose data
// match MessagesStreamEvent with `type` equal to the `event:` name, opened by message_start and closed by
// message_stop (or an error event); no `data: [DONE]`, which is the chat format's terminator.
import { createSseParser } from '../providers/sse/parse-sse.js';
import type { SchemaValidator } from './schema-validator.js';

export const MESSAGES_EVENT_STREAM = '#/components/schemas/MessagesEventStream';
const EVENT_SCHEMA = '#/components/schemas/MessagesStreamEvent';

export function messagesEventStreamProblem(
  validator: Pick<SchemaValidator, 'validate'>,
  body: string,
): string | undefined {
  const events = [...createSseParser().push(body)].filter((event) => event.event !== 'ping');
  if (events.length === 0) return 'empty event stream';
  const types: string[] = [];
  for (const [i, event] of events.entries()) {
    let data: { type?: unknown };
    try {
      data = JSON.parse(event.data) as { type?: unknown };
    } catch {
      return `event ${i} is not JSON: ${event.data.slice(0, 120)}`;
    }
    const result = validator.validate(EVENT_SCHEMA, data);
    if (!result.valid) return `event ${i} does not match ${EVENT_SCHEMA}: ${result.errors.join('; ')}`;
    if (event.event !== data.type)
      return `event ${i} is named ${JSON.stringify(event.event)} but its data has type ${JSON.stringify(data.type)}`;
    types.push(String(data.type));
  }
  if (types[0] !== 'message_start') return `stream starts with ${types[0]}, not message_start`;
  const last = types.at(-1);
  if (last !== 'message_stop' && last !== 'error') return `stream ends with ${last}, not message_stop or error`;
  return undefined;
}
