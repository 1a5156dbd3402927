/** The in-memory adapter of framing-origin-store (server/partners/framing/framing-origin-store.ts): the default of `npm start` and of most tests. */
import type { Environment } from "../../../generated/deployment.js";
import type { FramingOriginStore } from "../../partners/framing/framing-origin-store.js";

export class MemoryFramingOriginStore implements FramingOriginStore {
  private readonly origins = new Map<string, string[]>();

  async originsOf(partnerId: string, environment: Environment): Promise<string[]> {
    return [...(this.origins.get(`${environment}:${partnerId}`) ?? [])];
  }

  async setOrigins(partnerId: string, environment: Environment, origins: readonly string[]): Promise<void> {
    if (origins.length === 0) this.origins.delete(`${environment}:${partnerId}`);
    else this.origins.set(`${environment}:${partnerId}`, [...origins]);
  }
}
