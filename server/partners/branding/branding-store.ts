/**
 * The partner's look in the embedded interface, per environment (a partner may try a new look in
 * the sandbox first): an accent colour and a logo, set in the dashboard and read by the embed host on
 * every page, so a change shows on every instance at once.
 */
import { createHash } from "node:crypto";
import type { Environment } from "../../../generated/deployment.js";
import type { LogoType } from "./logo.js";

export interface Branding {
  /** `#rrggbb`, checked against the interface's contrast limits when it was set (accent-colour.ts). */
  accentColour: string | null;
  /** The logo's type and a version that changes with its bytes; its bytes are read only when the logo is fetched. */
  logo: { type: LogoType; version: string } | null;
}

export interface Logo {
  type: LogoType;
  bytes: Buffer;
}

export const NO_BRANDING: Branding = { accentColour: null, logo: null };

export interface BrandingStore {
  brandingOf(partnerId: string, environment: Environment): Promise<Branding>;
  logoOf(partnerId: string, environment: Environment): Promise<Logo | null>;
  /** Null removes the colour: the interface's own is used. */
  setAccentColour(partnerId: string, environment: Environment, colour: string | null, now: Date): Promise<void>;
  /** Null removes the logo. */
  setLogo(partnerId: string, environment: Environment, logo: Logo | null, now: Date): Promise<void>;
}

/** A short hash of the logo's bytes: the logo's address carries it, so a new logo is a new address and an old one may be cached for good. */
export const logoVersion = (bytes: Buffer) => createHash("sha256").update(bytes).digest("base64url").slice(0, 16);
