// Which strings of a door's request body guardrails read: every string value, whatever door or field it is in
// (messages, system, Responses' `input` and `instructions`, Gemini's contents, tool results, arguments), except
// those that name or encode rather than say something: ids, roles, types, model names, signatures, base64 data and
// data URLs. Read by the nearest member name, the same in the parsed body and in its bytes.
const STRUCTURAL_MEMBERS: ReadonlySet<string> = new Set([
  'model',
  'models',
  'role',
  'type',
  'id',
  'name',
  'call_id',
  'tool_call_id',
  'tool_use_id',
  'previous_response_id',
  'signature',
  'thoughtSignature',
  'thought_signature',
  'encrypted_content',
  'data',
  'file_data',
  'file_id',
  'mime_type',
  'mimeType',
  'media_type',
  'detail',
  'status',
  'ttl',
]);

/** Whether a string under member `member` (the nearest member name; undefined at the top) is text to check. */
export function isCheckedString(member: string | undefined, value: string): boolean {
  if (member !== undefined && STRUCTURAL_MEMBERS.has(member)) return false;
  return value.length > 0 && !value.startsWith('data:');
}
