// URLs as the OpenAI-shaped doors carry images and files (`data:<type>;base64,<data>` or https) → internal media
// sources. Only the plain base64 form is taken apart; any other URL stays a URL, which each adapter reads as before.
import type { MediaSource } from '../../core/content-blocks.js';

const BASE64_DATA_URL = /^data:([^;,]+);base64,/;

export function mediaSourceOfUrl(url: string): MediaSource {
  const match = BASE64_DATA_URL.exec(url);
  if (match) return { kind: 'base64', mediaType: match[1], data: url.slice(match[0].length) };
  return { kind: 'url', url };
}
