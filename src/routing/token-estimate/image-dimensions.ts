// Width and height of an image from the first bytes of its file, for the four formats every provider here accepts
// (PNG, JPEG, GIF, WebP), without decoding it: the prompt estimate needs the size, and an image library would be a
// native dependency for a few header fields. Anything else, or a header cut short, is "unknown" (undefined).

export interface ImageSize {
  width: number;
  height: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function readImageSize(bytes: Uint8Array): ImageSize | undefined {
  const size = readPng(bytes) ?? readGif(bytes) ?? readWebp(bytes) ?? readJpeg(bytes);
  return size && size.width > 0 && size.height > 0 ? size : undefined;
}

function ascii(bytes: Uint8Array, at: number, text: string): boolean {
  if (bytes.length < at + text.length) return false;
  for (let i = 0; i < text.length; i++) if (bytes[at + i] !== text.charCodeAt(i)) return false;
  return true;
}

const be16 = (b: Uint8Array, at: number) => (b[at] << 8) | b[at + 1];
const le16 = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8);
const le24 = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8) | (b[at + 2] << 16);
const be32 = (b: Uint8Array, at: number) => ((b[at] << 24) >>> 0) + ((b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]);

/** PNG: the IHDR chunk comes first, width and height as 32-bit big-endian integers. */
function readPng(b: Uint8Array): ImageSize | undefined {
  if (b.length < 24 || !PNG_SIGNATURE.every((byte, i) => b[i] === byte) || !ascii(b, 12, 'IHDR')) return undefined;
  return { width: be32(b, 16), height: be32(b, 20) };
}

/** GIF: the logical screen size, 16-bit little-endian, right after the signature. */
function readGif(b: Uint8Array): ImageSize | undefined {
  if (b.length < 10 || !(ascii(b, 0, 'GIF87a') || ascii(b, 0, 'GIF89a'))) return undefined;
  return { width: le16(b, 6), height: le16(b, 8) };
}

/** WebP: a RIFF container whose first chunk is VP8 (lossy), VP8L (lossless) or VP8X (extended, the canvas size). */
function readWebp(b: Uint8Array): ImageSize | undefined {
  if (b.length < 16 || !ascii(b, 0, 'RIFF') || !ascii(b, 8, 'WEBP')) return undefined;
  if (ascii(b, 12, 'VP8 ')) {
    // Frame tag (3 bytes), start code 9d 01 2a, then 14-bit width and height.
    if (b.length < 30 || b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return undefined;
    return { width: le16(b, 26) & 0x3fff, height: le16(b, 28) & 0x3fff };
  }
  if (ascii(b, 12, 'VP8L')) {
    if (b.length < 25 || b[20] !== 0x2f) return undefined;
    const bits = b[21] | (b[22] << 8) | (b[23] << 16) | (b[24] << 24);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (ascii(b, 12, 'VP8X') && b.length >= 30) return { width: le24(b, 24) + 1, height: le24(b, 27) + 1 };
  return undefined;
}

/** Start-of-frame markers (baseline, progressive, lossless, arithmetic); C4, C8 and CC are other segments. */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** JPEG: walk the segments up to a start-of-frame (after EXIF, ICC and other APPn segments), which holds the size. */
function readJpeg(b: Uint8Array): ImageSize | undefined {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return undefined;
  let at = 2;
  while (at + 3 < b.length) {
    if (b[at] !== 0xff) return undefined;
    const marker = b[at + 1];
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    // Markers without a length: RSTn, TEM, SOI.
    if ((marker >= 0xd0 && marker <= 0xd8) || marker === 0x01) {
      at += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return undefined; // end of image, or scan data before any frame header
    const length = be16(b, at + 2);
    if (length < 2) return undefined;
    if (isStartOfFrame(marker)) {
      if (at + 9 > b.length) return undefined;
      return { width: be16(b, at + 7), height: be16(b, at + 5) };
    }
    at += 2 + length;
  }
  return undefined;
}
