/**
 * A partner's logo, as the dashboard accepts it: PNG, JPEG or WebP, recognised by its bytes rather
 * than by the name or type the browser sent, and small. SVG is refused: it is a document that can
 * carry scripts and references, and the embed host serves nothing it has not checked.
 */
import type { Logo } from "./branding-store.js";

const LOGO_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;
export type LogoType = (typeof LOGO_TYPES)[number];

/** A logo is shown at most 40 pixels high: this is ample for one, and keeps every page's fetch small. */
export const MAX_LOGO_BYTES = 100 * 1024;

const startsWith = (bytes: Buffer, signature: readonly number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((byte, i) => bytes[offset + i] === byte);

/** The logo's type by its signature (the first bytes each format begins with), or null for anything else. */
export function logoTypeOf(bytes: Buffer): LogoType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  // RIFF....WEBP
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) return "image/webp";
  return null;
}
