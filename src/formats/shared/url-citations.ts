// Citations of web pages in OpenAI's `url_citation` terms, for the doors that show them (chat: message and delta
// `annotations`; Responses: output_text `annotations`). A citation without a URL (a document location) has no such
// form and is left out.
import type { Citation } from '../../core/content-blocks.js';

export interface UrlCitation {
  url: string;
  title?: string;
  /** The quoted text, when the vendor gives it. */
  citedText?: string;
}

export function urlCitationOf(citation: Citation): UrlCitation | undefined {
  const url = citation.fields.url;
  if (typeof url !== 'string' || url === '') return undefined;
  const out: UrlCitation = { url };
  if (typeof citation.fields.title === 'string') out.title = citation.fields.title;
  if (citation.citedText !== undefined) out.citedText = citation.citedText;
  return out;
}

/** The chat door's annotation (OpenAI chat completions, OpenRouter): `content` characters [start, end) cite the page. */
export function chatAnnotation(citation: Citation, start: number, end: number): Record<string, unknown> | undefined {
  const page = urlCitationOf(citation);
  if (!page) return undefined;
  const url_citation: Record<string, unknown> = { url: page.url };
  if (page.title !== undefined) url_citation.title = page.title;
  if (page.citedText !== undefined) url_citation.content = page.citedText;
  url_citation.start_index = start;
  url_citation.end_index = end;
  return { type: 'url_citation', url_citation };
}
