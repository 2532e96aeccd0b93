// Attachments built byte by byte for the prompt-estimate tests: image files with a given size in their headers, and
// PDFs with a given number of pages, plain or with their page objects compressed in an object stream, padded to a
// given file size.
import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';

const u32be = (n: number) => Buffer.from([(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]);
const u16be = (n: number) => Buffer.from([(n >>> 8) & 0xff, n & 0xff]);
const u16le = (n: number) => Buffer.from([n & 0xff, (n >>> 8) & 0xff]);
const u24le = (n: number) => Buffer.from([n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff]);

export function png(width: number, height: number): Buffer {
  const ihdr = Buffer.concat([u32be(width), u32be(height), Buffer.from([8, 6, 0, 0, 0])]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    u32be(13),
    Buffer.from('IHDR'),
    ihdr,
    u32be(0),
    u32be(0),
    Buffer.from('IEND'),
    u32be(0xae426082),
  ]);
}

/** A JPEG whose frame header follows an APP1 (EXIF) segment of `exifBytes` and, optionally, an ICC APP2 segment. */
export function jpeg(width: number, height: number, exifBytes = 16, progressive = false): Buffer {
  const app1 = Buffer.concat([Buffer.from([0xff, 0xe1]), u16be(exifBytes + 2), Buffer.alloc(exifBytes, 0x45)]);
  const sof = Buffer.concat([
    Buffer.from([0xff, progressive ? 0xc2 : 0xc0]),
    u16be(17),
    Buffer.from([8]),
    u16be(height),
    u16be(width),
    Buffer.from([3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]),
  ]);
  // A DHT segment (0xC4: not a frame header) before the frame, as encoders write them.
  const dht = Buffer.concat([Buffer.from([0xff, 0xc4]), u16be(5), Buffer.from([0, 0, 0])]);
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    app1,
    Buffer.from([0xff]),
    dht,
    sof,
    Buffer.from([0xff, 0xda, 0, 2, 0xff, 0xd9]),
  ]);
}

export function gif(width: number, height: number): Buffer {
  return Buffer.concat([Buffer.from('GIF89a'), u16le(width), u16le(height), Buffer.from([0, 0, 0, 0x3b])]);
}

export function webp(kind: 'VP8 ' | 'VP8L' | 'VP8X', width: number, height: number): Buffer {
  let chunk: Buffer;
  if (kind === 'VP8 ')
    chunk = Buffer.concat([
      Buffer.from([0x9d, 0x01, 0x00]),
      Buffer.from([0x9d, 0x01, 0x2a]),
      u16le(width),
      u16le(height),
    ]);
  else if (kind === 'VP8L') {
    const bits = ((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14);
    chunk = Buffer.concat([
      Buffer.from([0x2f]),
      Buffer.from([bits & 0xff, (bits >>> 8) & 0xff, (bits >>> 16) & 0xff, (bits >>> 24) & 0xff]),
    ]);
  } else chunk = Buffer.concat([Buffer.from([0, 0, 0, 0]), u24le(width - 1), u24le(height - 1)]);
  const body = Buffer.concat([
    Buffer.from('WEBP'),
    Buffer.from(kind),
    Buffer.from([chunk.length, 0, 0, 0]),
    chunk,
    Buffer.alloc(4),
  ]);
  return Buffer.concat([
    Buffer.from('RIFF'),
    Buffer.from([body.length & 0xff, (body.length >>> 8) & 0xff, 0, 0]),
    body,
  ]);
}

export function dataUrl(mime: string, bytes: Buffer): string {
  return `data:${mime};base64,${bytes.toString('base64')}`;
}

export interface PdfOptions {
  pages: number;
  /** Page objects (and the page tree) inside a Flate-compressed object stream, as PDF 1.5+ writers do. */
  objectStream?: boolean;
  /** Pad the file with an incompressible image stream up to about this many bytes. */
  sizeBytes?: number;
}

/** A PDF of `pages` empty letter-size pages. */
export function pdf(options: PdfOptions): Buffer {
  const objects: string[] = [];
  const kids = Array.from({ length: options.pages }, (_, i) => `${3 + i} 0 R`).join(' ');
  const pageDicts = Array.from(
    { length: options.pages },
    () => '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
  );
  const tree = `<< /Type /Pages /Kids [${kids}] /Count ${options.pages} >>`;
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  objects.push('<< /Type /Catalog /Pages 2 0 R >>');
  if (options.objectStream) {
    const inner = [tree, ...pageDicts];
    const header = inner.map((_, i) => `${2 + i} 0`).join(' ');
    const body = Buffer.from(`${header}\n${inner.join('\n')}`, 'latin1');
    const packed = deflateSync(body);
    parts.push(Buffer.from(`1 0 obj\n${objects[0]}\nendobj\n`, 'latin1'));
    parts.push(
      Buffer.from(
        `${3 + options.pages} 0 obj\n<< /Type /ObjStm /N ${inner.length} /First ${header.length + 1} /Filter /FlateDecode /Length ${packed.length} >>\nstream\n`,
        'latin1',
      ),
      packed,
      Buffer.from('\nendstream\nendobj\n', 'latin1'),
    );
  } else {
    objects.push(tree, ...pageDicts);
    for (const [i, dict] of objects.entries()) parts.push(Buffer.from(`${i + 1} 0 obj\n${dict}\nendobj\n`, 'latin1'));
  }
  const written = parts.reduce((n, p) => n + p.length, 0);
  if (options.sizeBytes !== undefined && options.sizeBytes > written + 200) {
    const pad = randomBytes(options.sizeBytes - written - 200);
    parts.push(
      Buffer.from(
        `900 0 obj\n<< /Type /XObject /Subtype /Image /Width 1 /Height 1 /Length ${pad.length} >>\nstream\n`,
        'latin1',
      ),
      pad,
      Buffer.from('\nendstream\nendobj\n', 'latin1'),
    );
  }
  parts.push(Buffer.from('trailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1'));
  return Buffer.concat(parts);
}
