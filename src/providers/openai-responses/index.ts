// OpenAI's Responses API as a back door: a protocol, not a provider kind. OpenAI is an OpenAI-compatible vendor
// (kind `openai-compatible`, one entry in vendors.ts) whose profile also speaks `responses`, so the OpenAI-compatible
// bundle brings this native back door, and any vendor whose profile lists `responses` (a proxy in front of OpenAI,
// `quirks.vendor: "openai"`) is served by it without a kind of its own. The Responses door reaches every other
// provider through the translated lane.
export { nativeResponses } from './native-responses.js';
