// The prompt estimate of attachments: image sizes read from header bytes, the vendors' image formulas (the largest
// of them), PDF pages counted from the file (object streams included), and the stated bounds when nothing can be read.
import { describe, expect, it } from 'vitest';
import { readImageSize } from '../../src/routing/token-estimate/image-dimensions.js';
import { countPdfPages } from '../../src/routing/token-estimate/pdf-pages.js';
import {
  anthropicImageTokens,
  geminiImageTokens,
  imageTokens,
  imageTokensForSize,
  openAiImageTokens,
  pdfTokens,
  PDF_PAGE_TOKENS,
  UNKNOWN_IMAGE_TOKENS,
} from '../../src/routing/token-estimate/attachment-tokens.js';
import { estimatePromptTokens } from '../../src/routing/token-estimate/estimate-tokens.js';
import { fromChat, type ChatCompletionRequest } from '../helpers/chat-requests.js';
import { dataUrl, gif, jpeg, pdf, png, webp } from '../helpers/attachments.js';

describe('readImageSize', () => {
  it('reads PNG, GIF, WebP (lossy, lossless, extended) and JPEG headers', () => {
    expect(readImageSize(png(1920, 1080))).toEqual({ width: 1920, height: 1080 });
    expect(readImageSize(gif(320, 200))).toEqual({ width: 320, height: 200 });
    expect(readImageSize(webp('VP8 ', 1000, 700))).toEqual({ width: 1000, height: 700 });
    expect(readImageSize(webp('VP8L', 4000, 3000))).toEqual({ width: 4000, height: 3000 });
    expect(readImageSize(webp('VP8X', 12000, 9000))).toEqual({ width: 12000, height: 9000 });
    expect(readImageSize(jpeg(4032, 3024))).toEqual({ width: 4032, height: 3024 });
    expect(readImageSize(jpeg(800, 600, 16, true))).toEqual({ width: 800, height: 600 });
  });

  it('answers undefined for other formats and headers cut short', () => {
    expect(readImageSize(Buffer.from('BM not an image at all, nothing to read here'))).toBeUndefined();
    expect(readImageSize(png(10, 10).subarray(0, 20))).toBeUndefined();
    expect(readImageSize(jpeg(10, 10, 40_000).subarray(0, 30_000))).toBeUndefined();
    expect(readImageSize(png(0, 10))).toBeUndefined();
    expect(readImageSize(Buffer.alloc(0))).toBeUndefined();
  });
});

describe('image tokens', () => {
  it("follows each vendor's documented formula", () => {
    expect(anthropicImageTokens({ width: 1000, height: 1000 })).toBe(1334); // 1e6 / 750
    expect(anthropicImageTokens({ width: 8000, height: 8000 })).toBe(4784); // scaled to 2576 px, capped
    // Tiles (768 × 768 after scaling: 4 tiles, 765) or nano's patches (32 × 32 = 1,024 patches × 2.46), the larger.
    expect(openAiImageTokens({ width: 1024, height: 1024 })).toBe(Math.max(85 + 170 * 4, Math.ceil(1024 * 2.46)));
    expect(openAiImageTokens({ width: 200, height: 200 })).toBe(85 + 170); // one tile; 49 patches × 2.46 = 121
    expect(openAiImageTokens({ width: 4096, height: 8192 })).toBe(Math.ceil(1536 * 2.46)); // at most 1,536 patches
    expect(geminiImageTokens({ width: 300, height: 300 })).toBe(1120); // Gemini 3's default, above Gemini 2's 258
    expect(geminiImageTokens({ width: 3840, height: 2160 })).toBe(258 * 5 * 3);
  });

  it('takes the largest of the formulas, read from a data URL', () => {
    // 1024 × 768: Anthropic 1,049, OpenAI tiles 765, OpenAI patches 768 × 2.46 → 1,890, Gemini 1,120.
    expect(imageTokens(dataUrl('image/png', png(1024, 768)))).toBe(1890);
    expect(imageTokens(dataUrl('image/jpeg', jpeg(1024, 768)))).toBe(1890);
    expect(imageTokens(dataUrl('image/png', png(64, 64)))).toBe(1120);
    expect(imageTokensForSize({ width: 3840, height: 2160 })).toBe(4784);
  });

  it('reads a JPEG whose frame header comes after a large EXIF segment (beyond the first decoded bytes)', () => {
    expect(imageTokens(dataUrl('image/jpeg', jpeg(6000, 6000, 60_000)))).toBe(
      imageTokensForSize({ width: 6000, height: 6000 }),
    );
  });

  it('counts an image it cannot size (https URL, unknown format) as the largest image any provider accepts', () => {
    expect(UNKNOWN_IMAGE_TOKENS).toBe(258 * 11 * 11); // 8000 × 8000 px in Gemini 2's 768-px tiles
    expect(imageTokens('https://example.com/cat.png')).toBe(UNKNOWN_IMAGE_TOKENS);
    expect(imageTokens(dataUrl('image/bmp', Buffer.from('BM....')))).toBe(UNKNOWN_IMAGE_TOKENS);
    expect(imageTokens('data:image/png,not-base64')).toBe(UNKNOWN_IMAGE_TOKENS);
  });
});

describe('PDF pages', () => {
  it("counts page objects and the page tree's /Count", () => {
    expect(countPdfPages(pdf({ pages: 7 }))).toBe(7);
    expect(countPdfPages(Buffer.from('%PDF-1.4\n2 0 obj << /Type /Pages /Kids [] /Count 41 >> endobj'))).toBe(41);
  });

  it('finds pages compressed in object streams', () => {
    expect(countPdfPages(pdf({ pages: 12, objectStream: true }))).toBe(12);
  });

  it('answers undefined when no page can be found', () => {
    expect(
      countPdfPages(Buffer.from('%PDF-1.7\n1 0 obj << /Type /ObjStm /N 3 >>\nstream\nnot flate\nendstream')),
    ).toBeUndefined();
    expect(countPdfPages(Buffer.alloc(1000))).toBeUndefined();
  });

  it('counts 3,000 tokens a page, a token a byte when pages are unknown, 100 pages by URL', () => {
    expect(pdfTokens(dataUrl('application/pdf', pdf({ pages: 30, sizeBytes: 200_000 })))).toBe(30 * PDF_PAGE_TOKENS);
    expect(pdfTokens(dataUrl('application/pdf', Buffer.alloc(90_000, 0x20)))).toBe(90_000);
    expect(pdfTokens('https://example.com/report.pdf')).toBe(100 * PDF_PAGE_TOKENS);
  });
});

describe('estimatePromptTokens with attachments', () => {
  it('counts a PDF by its pages and an image by its size, not a flat 1,000 tokens each', () => {
    const request = {
      model: 'm',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Summarise' },
            { type: 'file', file: { filename: 'a.pdf', file_data: dataUrl('application/pdf', pdf({ pages: 40 })) } },
            { type: 'image_url', image_url: { url: dataUrl('image/png', png(4000, 3000)) } },
          ],
        },
      ],
    } as ChatCompletionRequest;
    const text = 3 + 4 + Math.ceil('Summarise'.length / 4);
    expect(estimatePromptTokens(fromChat(request))).toBe(
      text + 40 * PDF_PAGE_TOKENS + imageTokensForSize({ width: 4000, height: 3000 }),
    );
  });
});
