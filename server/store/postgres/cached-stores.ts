/**
 * The stores of what changes rarely, read on every request, in front of their PostgreSQL stores
 * with the instance's caches (change-cache.ts): stored API keys by hash, sandbox clock offsets,
 * framing origins and branding. Each write through them drops what it changed from this
 * instance's cache as soon as it is done, without waiting for the database's notification; the
 * notification tells the other instances (and this one again, harmlessly).
 */
import type { Environment } from "../../../generated/deployment.js";
import type { ClockOffsetStore } from "../../domain/sandbox/clock-offset-store.js";
import type { Branding, BrandingStore, Logo } from "../../partners/branding/branding-store.js";
import type { FramingOriginStore } from "../../partners/framing/framing-origin-store.js";
import type { ApiKeyStore, StoredApiKey } from "../../partners/keys/api-key-store.js";
import { type ChangeCaches, keyOf } from "./change-cache.js";

/** The cache key of a row keyed by partner and environment, as the notifications name it. */
const partnerEnvironment = (partnerId: string, environment: Environment) => keyOf([partnerId, environment]);

const acceptedAt = (key: StoredApiKey, now: Date) => key.expiresAt === null || key.expiresAt.getTime() > now.getTime();

/**
 * Keys by hash, known keys only: an unknown key costs its query, as it always did, and cannot
 * fill the cache. A cached key's expiry is still checked against each lookup's `now`.
 */
export class CachedApiKeyStore implements ApiKeyStore {
  private readonly cache;

  constructor(
    private readonly stored: ApiKeyStore,
    caches: ChangeCaches,
  ) {
    this.cache = caches.table<StoredApiKey>("api_keys");
  }

  async findKey(hash: string, now: Date): Promise<StoredApiKey | undefined> {
    const cached = this.cache.peek(hash);
    if (cached) return acceptedAt(cached, now) ? cached : undefined;
    // Kept is the row as found at `now`: a later lookup checks its expiry against its own `now`.
    return this.cache.read(hash, () => this.stored.findKey(hash, now));
  }

  async addKey(key: StoredApiKey): Promise<void> {
    await this.stored.addKey(key);
    this.cache.invalidate(key.hash);
  }

  revokeKey(hash: string): Promise<boolean> {
    return this.cache.afterWrite(hash, () => this.stored.revokeKey(hash));
  }

  keysOf(environment: Environment): Promise<StoredApiKey[]> {
    return this.stored.keysOf(environment);
  }

  keysOfPartner(partnerId: string, environment: Environment, now: Date): Promise<StoredApiKey[]> {
    return this.stored.keysOfPartner(partnerId, environment, now);
  }

  revokeKeyById(partnerId: string, id: string): Promise<boolean> {
    return this.cache.afterWrite(
      (key) => key.id === id,
      () => this.stored.revokeKeyById(partnerId, id),
    );
  }

  expireKey(partnerId: string, id: string, at: Date): Promise<boolean> {
    return this.cache.afterWrite(
      (key) => key.id === id,
      () => this.stored.expireKey(partnerId, id, at),
    );
  }

  /**
   * Records the use in the database and in the cached entry: the next lookup of this instance
   * then sees it, and does not record it again within the same minute. Recorded first in the
   * cache, so the requests that follow at once do not write it too. The database does not notify
   * this change (migrations/0017_cache_notifications.sql), so other instances keep their entry.
   */
  async touchKey(hash: string, at: Date): Promise<void> {
    this.cache.update(hash, (key) => (key.lastUsedAt === null || key.lastUsedAt < at ? { ...key, lastUsedAt: at } : key));
    await this.stored.touchKey(hash, at);
  }

  deleteExpiredKeys(now: Date): Promise<number> {
    return this.cache.afterWrite(
      (key) => !acceptedAt(key, now),
      () => this.stored.deleteExpiredKeys(now),
    );
  }
}

/** Offsets by partner, a partner that never advanced (0) included: that is most of them. */
export class CachedClockOffsetStore implements ClockOffsetStore {
  private readonly cache;

  constructor(
    private readonly stored: ClockOffsetStore,
    caches: ChangeCaches,
  ) {
    this.cache = caches.table<number>("sandbox_clock_offsets");
  }

  offsetOf(partnerId: string): Promise<number> {
    return this.cache.read(partnerId, () => this.stored.offsetOf(partnerId));
  }

  /** Not the offset it answers: another instance's advance may have come after it, and its notification before this answer. */
  advance(partnerId: string, milliseconds: number): Promise<number> {
    return this.cache.afterWrite(partnerId, () => this.stored.advance(partnerId, milliseconds));
  }

  reset(partnerId: string): Promise<void> {
    return this.cache.afterWrite(partnerId, () => this.stored.reset(partnerId));
  }
}

export class CachedFramingOriginStore implements FramingOriginStore {
  private readonly cache;

  constructor(
    private readonly stored: FramingOriginStore,
    caches: ChangeCaches,
  ) {
    this.cache = caches.table<readonly string[]>("framing_origins");
  }

  /** A copy: the caller may change the list it is given, not the cached one. */
  async originsOf(partnerId: string, environment: Environment): Promise<string[]> {
    return [...(await this.cache.read(partnerEnvironment(partnerId, environment), () => this.stored.originsOf(partnerId, environment)))];
  }

  setOrigins(partnerId: string, environment: Environment, origins: readonly string[]): Promise<void> {
    return this.cache.afterWrite(partnerEnvironment(partnerId, environment), () => this.stored.setOrigins(partnerId, environment, origins));
  }
}

/** A page's look; never a logo's bytes, which only the logo's own address reads. */
export class CachedBrandingStore implements BrandingStore {
  private readonly cache;

  constructor(
    private readonly stored: BrandingStore,
    caches: ChangeCaches,
  ) {
    this.cache = caches.table<Branding>("embed_branding");
  }

  brandingOf(partnerId: string, environment: Environment): Promise<Branding> {
    return this.cache.read(partnerEnvironment(partnerId, environment), () => this.stored.brandingOf(partnerId, environment));
  }

  logoOf(partnerId: string, environment: Environment): Promise<Logo | null> {
    return this.stored.logoOf(partnerId, environment);
  }

  setAccentColour(partnerId: string, environment: Environment, colour: string | null, now: Date): Promise<void> {
    return this.cache.afterWrite(partnerEnvironment(partnerId, environment), () =>
      this.stored.setAccentColour(partnerId, environment, colour, now),
    );
  }

  setLogo(partnerId: string, environment: Environment, logo: Logo | null, now: Date): Promise<void> {
    return this.cache.afterWrite(partnerEnvironment(partnerId, environment), () => this.stored.setLogo(partnerId, environment, logo, now));
  }
}
