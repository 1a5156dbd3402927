/** Idempotency keys in this process's memory (the memory persistence). */
import { randomUUID } from "node:crypto";
import { JournaledMap } from "./undo-journal.js";
import type { IdempotencyScope, IdempotencyStore, KeyClaim, StoredAnswer } from "../../platform/idempotency/idempotency-store.js";

interface KeyEntry {
  fingerprint: string;
  token: string;
  createdAt: Date;
  /** Real time (ms) the claim's lease ends; null once answered. */
  lockedUntil: number | null;
  answer: StoredAnswer | null;
}

const scopeKey = ({ partnerId, environment, method, path, key }: IdempotencyScope) =>
  `${partnerId}\u0000${environment}\u0000${method}\u0000${path}\u0000${key}`;

export class MemoryIdempotencyStore implements IdempotencyStore {
  /** Journaled, and entries replaced rather than changed: an answer stored by a unit of work that throws is undone with it. */
  private readonly entries = new JournaledMap<string, KeyEntry>();

  async claim(scope: IdempotencyScope, fingerprint: string, now: Date, keptSince: Date, leaseMs: number): Promise<KeyClaim> {
    const id = scopeKey(scope);
    const entry = this.entries.get(id);
    if (entry && entry.createdAt >= keptSince) {
      if (entry.answer) return { state: "completed", fingerprint: entry.fingerprint, answer: structuredClone(entry.answer) };
      if (entry.lockedUntil !== null && entry.lockedUntil > Date.now()) return { state: "running", fingerprint: entry.fingerprint };
    }
    const token = randomUUID();
    this.entries.set(id, { fingerprint, token, createdAt: now, lockedUntil: Date.now() + leaseMs, answer: null });
    return { state: "claimed", token };
  }

  async complete(scope: IdempotencyScope, token: string, answer: StoredAnswer): Promise<boolean> {
    const id = scopeKey(scope);
    const entry = this.entries.get(id);
    if (entry?.token !== token) return false;
    this.entries.set(id, { ...entry, answer: structuredClone(answer), lockedUntil: null });
    return true;
  }

  async release(scope: IdempotencyScope, token: string): Promise<void> {
    const id = scopeKey(scope);
    if (this.entries.get(id)?.token === token) this.entries.delete(id);
  }

  async deleteCreatedBefore(before: Date): Promise<number> {
    let deleted = 0;
    // Every entry, not the oldest few: a clock set back (a test's, a sandbox reset) breaks any order by time.
    for (const [id, entry] of this.entries) {
      if (entry.createdAt >= before) continue;
      this.entries.delete(id);
      deleted++;
    }
    return deleted;
  }
}
