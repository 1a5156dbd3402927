/** The in-memory adapter of branding-store (server/partners/branding/branding-store.ts): the default of `npm start` and of most tests. */
import type { Environment } from "../../../generated/deployment.js";
import { type Branding, type Logo, type BrandingStore, logoVersion } from "../../partners/branding/branding-store.js";

/** A logo as kept, with its version computed once when it is set (every page reads the version). */
type KeptLogo = Logo & { version: string };

export class MemoryBrandingStore implements BrandingStore {
  private readonly looks = new Map<string, { accentColour: string | null; logo: KeptLogo | null }>();

  private lookOf(partnerId: string, environment: Environment) {
    return this.looks.get(`${environment}:${partnerId}`) ?? { accentColour: null, logo: null };
  }

  async brandingOf(partnerId: string, environment: Environment): Promise<Branding> {
    const { accentColour, logo } = this.lookOf(partnerId, environment);
    return { accentColour, logo: logo && { type: logo.type, version: logo.version } };
  }

  async logoOf(partnerId: string, environment: Environment): Promise<Logo | null> {
    const { logo } = this.lookOf(partnerId, environment);
    return logo && { type: logo.type, bytes: Buffer.from(logo.bytes) };
  }

  async setAccentColour(partnerId: string, environment: Environment, accentColour: string | null): Promise<void> {
    this.looks.set(`${environment}:${partnerId}`, { ...this.lookOf(partnerId, environment), accentColour });
  }

  async setLogo(partnerId: string, environment: Environment, logo: Logo | null): Promise<void> {
    this.looks.set(`${environment}:${partnerId}`, {
      ...this.lookOf(partnerId, environment),
      logo: logo && { type: logo.type, bytes: Buffer.from(logo.bytes), version: logoVersion(logo.bytes) },
    });
  }
}
