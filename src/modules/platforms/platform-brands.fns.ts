import { createHash } from 'node:crypto';
import { colord, extend } from 'colord';
import a11yPlugin from 'colord/plugins/a11y';
import { InvalidInputError } from '../../lib/errors.js';

extend([a11yPlugin]);

/** The largest logo we keep: it sits in the database and is sent with every hosted page's header. */
export const MAX_LOGO_BYTES = 100 * 1024;
/** Larger images are scaled down by the browser anyway; this bounds the memory a decoder spends on ours. */
export const MAX_LOGO_SIDE = 2048;
/** WCAG 2.x AA for normal text: white button text on the accent, and accent links on the white page. */
export const MIN_ACCENT_CONTRAST = 4.5;
export const MAX_DISPLAY_NAME = 100;

const WHITE = '#ffffff';

/** A display name as shown in the header and the pages' sentences: trimmed, 1–100 characters, one line. */
export function checkDisplayName(input: string, path: (string | number)[]): string {
  const name = input.trim();
  if (name.length === 0 || name.length > MAX_DISPLAY_NAME)
    throw new InvalidInputError(path, `A display name must have 1 to ${MAX_DISPLAY_NAME} characters`, input);
  if (/[\u0000-\u001f\u007f]/.test(name))
    throw new InvalidInputError(path, 'A display name must be one line of text, without control characters', input);
  return name;
}

/**
 * An accent colour: `#rgb` or `#rrggbb` (any case), stored as lower-case `#rrggbb`. It must reach 4.5:1
 * against white, because the pages put white text on it (buttons) and put it on white (links, outlines). A
 * colour that does not is refused with the nearest darker shade that does, rather than silently changed:
 * the platform decides what its brand looks like.
 */
export function checkAccent(input: string, path: (string | number)[]): string {
  const text = input.trim();
  if (!/^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(text))
    throw new InvalidInputError(path, 'An accent colour is a hex colour such as #0b5fff', input);
  const color = colord(text);
  const ratio = color.contrast(WHITE);
  if (ratio < MIN_ACCENT_CONTRAST) {
    throw new InvalidInputError(
      path,
      `${color.toHex()} reaches only ${ratio.toFixed(2)}:1 against white; buttons (white text) and links need ${MIN_ACCENT_CONTRAST}:1. ` +
        `The nearest darker shade that does is ${nearestReadableShade(text)}`,
      input,
    );
  }
  return color.toHex();
}

/** The same hue, darkened in steps of 0.2% lightness until white reaches the minimum contrast (black always does). */
export function nearestReadableShade(input: string): string {
  const color = colord(input);
  for (let step = 1; step <= 500; step++) {
    const shade = color.darken(step * 0.002);
    if (shade.contrast(WHITE) >= MIN_ACCENT_CONTRAST) return shade.toHex();
  }
  return '#000000';
}

export interface CheckedLogo {
  bytes: Buffer;
  contentType: 'image/png' | 'image/jpeg';
  sha256: string;
  width: number;
  height: number;
}

/**
 * A logo upload: a PNG or JPEG (recognised by its bytes, whatever its name says) of at most 100 KB and
 * 2048 px a side. SVG is refused: it is a document that can carry scripts and links, not just a picture.
 */
export function checkLogo(bytes: Buffer, path: (string | number)[]): CheckedLogo {
  const describe = `${bytes.length} bytes`;
  if (bytes.length === 0) throw new InvalidInputError(path, 'The logo is empty', describe);
  if (bytes.length > MAX_LOGO_BYTES) {
    throw new InvalidInputError(
      path,
      `A logo may be at most ${MAX_LOGO_BYTES / 1024} KB; this one is ${Math.ceil(bytes.length / 1024)} KB`,
      describe,
    );
  }
  const image = pngSize(bytes) ?? jpegSize(bytes);
  if (!image) {
    const svg = /^\s*(<\?xml|<svg)/i.test(bytes.subarray(0, 200).toString('utf8'));
    throw new InvalidInputError(
      path,
      svg ? 'SVG logos are not accepted (an SVG can carry scripts): upload a PNG or JPEG' : 'A logo must be a PNG or JPEG image',
      describe,
    );
  }
  if (image.width < 1 || image.height < 1 || image.width > MAX_LOGO_SIDE || image.height > MAX_LOGO_SIDE) {
    throw new InvalidInputError(
      path,
      `A logo may be at most ${MAX_LOGO_SIDE}×${MAX_LOGO_SIDE} pixels; this one is ${image.width}×${image.height}`,
      describe,
    );
  }
  return { bytes, ...image, sha256: createHash('sha256').update(bytes).digest('hex') };
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG's size from its first chunk, which must be IHDR. */
function pngSize(bytes: Buffer): { contentType: 'image/png'; width: number; height: number } | null {
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE) || bytes.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { contentType: 'image/png', width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** A JPEG's size from its first start-of-frame segment (SOF0–SOF15, except the DHT/JPG/DAC markers). */
function jpegSize(bytes: Buffer): { contentType: 'image/jpeg'; width: number; height: number } | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    const length = bytes.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { contentType: 'image/jpeg', height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    }
    if (length < 2) return null;
    at += 2 + length;
  }
  return null;
}
