/**
 * The wire protocols the gateway speaks: each front door speaks one (chat completions, Anthropic Messages, OpenAI
 * Responses; Gemini's generateContent is an upstream protocol here), and each upstream endpoint speaks one or more.
 * When a request's door speaks a protocol its endpoint speaks too, the attempt takes the native lane.
 */
export type WireProtocol = 'chat' | 'messages' | 'responses' | 'gemini';
