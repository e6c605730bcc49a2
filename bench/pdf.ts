/**
 * The bench's mail PDFs (targets f0, f1, g0, g1): valid one-page PDF 1.4 documents of about `size`
 * bytes, like a scanned letter: a text line and a grey-scale image (the "scan", an uncompressed
 * 8-bit image XObject whose pixels are pseudo-random), a cross-reference table with the real byte
 * offsets, a trailer and `%%EOF`. The binary comment after the header and the image make them
 * binary files, as real PDFs are. Different indexes give different bytes (so every upload is its
 * own file in the content-addressed store); the same index always gives the same bytes.
 */

const IMAGE_WIDTH = 256;

export function benchPdf(index: number, size = 100 * 1024): Buffer {
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let length = 0;
  const push = (part: Buffer | string) => {
    const buffer = typeof part === 'string' ? Buffer.from(part, 'latin1') : part;
    parts.push(buffer);
    length += buffer.length;
  };
  const object = (body: Buffer | string, stream?: Buffer) => {
    offsets.push(length);
    push(`${offsets.length} 0 obj\n`);
    push(body);
    if (stream) {
      push('\nstream\n');
      push(stream);
      push('\nendstream');
    }
    push('\nendobj\n');
  };

  // The header, then a comment of bytes above 127 that marks the file as binary (PDF 32000-1, 7.5.2).
  push('%PDF-1.4\n');
  push(Buffer.from([0x25, 0xe2, 0xe3, 0xcf, 0xd3, 0x0a]));

  const content = Buffer.from(
    `q 612 0 0 792 0 0 cm /Im1 Do Q\nBT /F1 14 Tf 72 740 Td (Statehouse bench mail ${index}: registered agent notice) Tj ET`,
    'latin1',
  );
  // What the text objects and the cross-reference table take, roughly: the image makes up the rest.
  const height = Math.max(1, Math.round((size - 1100) / IMAGE_WIDTH));
  const pixels = Buffer.alloc(IMAGE_WIDTH * height);
  // xorshift32 seeded by the index: distinct, repeatable, incompressible-looking bytes.
  let state = (0x9e3779b9 ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0 || 1;
  for (let i = 0; i < pixels.length; i += 4) {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    pixels.writeUInt32LE(state, i);
  }

  object('<< /Type /Catalog /Pages 2 0 R >>');
  object('<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
  object(
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> /XObject << /Im1 6 0 R >> >> /Contents 4 0 R >>',
  );
  object(`<< /Length ${content.length} >>`, content);
  object('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  object(
    `<< /Type /XObject /Subtype /Image /Width ${IMAGE_WIDTH} /Height ${height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Length ${pixels.length} >>`,
    pixels,
  );

  const xref = length;
  push(`xref\n0 ${offsets.length + 1}\n0000000000 65535 f \n`);
  for (const offset of offsets) push(`${String(offset).padStart(10, '0')} 00000 n \n`);
  push(`trailer\n<< /Size ${offsets.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts, length);
}
