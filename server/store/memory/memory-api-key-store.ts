/** API keys in this process's memory: the dashboard's keys on the memory store. */
import type { Environment } from "../../../generated/deployment.js";
import type { ApiKeyStore, StoredApiKey } from "../../partners/keys/api-key-store.js";

const acceptedAt = (key: StoredApiKey, now: Date) => key.expiresAt === null || key.expiresAt > now;

export class MemoryApiKeyStore implements ApiKeyStore {
  /** By hash, in creation order. */
  private readonly keys = new Map<string, StoredApiKey>();

  async findKey(hash: string, now: Date): Promise<StoredApiKey | undefined> {
    const key = this.keys.get(hash);
    return key && acceptedAt(key, now) ? { ...key } : undefined;
  }

  async addKey(key: StoredApiKey): Promise<void> {
    this.keys.set(key.hash, { ...key });
  }

  async revokeKey(hash: string): Promise<boolean> {
    return this.keys.delete(hash);
  }

  async keysOf(environment: Environment): Promise<StoredApiKey[]> {
    return [...this.keys.values()].filter((key) => key.environment === environment).map((key) => ({ ...key }));
  }

  async keysOfPartner(partnerId: string, environment: Environment, now: Date): Promise<StoredApiKey[]> {
    return [...this.keys.values()]
      .filter((key) => key.partnerId === partnerId && key.environment === environment && acceptedAt(key, now))
      .map((key) => ({ ...key }));
  }

  private byId(partnerId: string, id: string): StoredApiKey | undefined {
    for (const key of this.keys.values()) if (key.id === id && key.partnerId === partnerId) return key;
    return undefined;
  }

  async revokeKeyById(partnerId: string, id: string): Promise<boolean> {
    const key = this.byId(partnerId, id);
    return key !== undefined && this.keys.delete(key.hash);
  }

  async expireKey(partnerId: string, id: string, at: Date): Promise<boolean> {
    const key = this.byId(partnerId, id);
    if (!key) return false;
    if (key.expiresAt === null || key.expiresAt > at) key.expiresAt = at;
    return true;
  }

  async touchKey(hash: string, at: Date): Promise<void> {
    const key = this.keys.get(hash);
    if (key && (key.lastUsedAt === null || key.lastUsedAt < at)) key.lastUsedAt = at;
  }

  async deleteExpiredKeys(now: Date): Promise<number> {
    let deleted = 0;
    for (const [hash, key] of this.keys)
      if (!acceptedAt(key, now)) {
        this.keys.delete(hash);
        deleted++;
      }
    return deleted;
  }
}
