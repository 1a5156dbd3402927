/** API keys: generated once, shown once, stored only as SHA-256 hashes. */
import { hash, timingSafeEqual } from "node:crypto";
import { randomBase62 } from "../ids.js";

export type Environment = "sandbox" | "production";

const PREFIX: Record<Environment, string> = { sandbox: "sk_sandbox_", production: "sk_live_" };

export const generateApiKey = (environment: Environment) => PREFIX[environment] + randomBase62(32);

// One-shot hashing: a Hash object per request showed in CPU profiles (every request is authenticated).
export const hashApiKey = (key: string) => hash("sha256", key, "buffer");

export function environmentOfKey(key: string): Environment | null {
  if (key.startsWith(PREFIX.sandbox)) return "sandbox";
  if (key.startsWith(PREFIX.production)) return "production";
  return null;
}

export interface Partner {
  id: string;
  name: string;
}

/**
 * The keys a deployment accepts. Lookup is by hash, so the time taken depends on the hash, never
 * on how much of a guessed key is right; the stored hash is still compared in constant time.
 */
export class KeyRing {
  private readonly byHash = new Map<string, { hash: Buffer; partner: Partner }>();

  constructor(private readonly environment: Environment) {}

  /** Adds a key given in plain text (from configuration); only its hash is kept. */
  addKey(partner: Partner, key: string): void {
    if (environmentOfKey(key) !== this.environment) throw new Error(`a ${this.environment} deployment only takes ${PREFIX[this.environment]} keys`);
    this.addHash(partner, hashApiKey(key));
  }

  addHash(partner: Partner, hash: Buffer): void {
    this.byHash.set(hash.toString("hex"), { hash, partner });
  }

  revoke(key: string): void {
    this.byHash.delete(hashApiKey(key).toString("hex"));
  }

  /** The partner owning the key, or null for an unknown key or a key of the other environment. */
  partnerFor(key: string): Partner | null {
    if (environmentOfKey(key) !== this.environment) return null;
    const keyHash = hashApiKey(key);
    const entry = this.byHash.get(keyHash.toString("hex"));
    return entry && timingSafeEqual(entry.hash, keyHash) ? entry.partner : null;
  }
}
