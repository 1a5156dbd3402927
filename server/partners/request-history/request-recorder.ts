/**
 * Writes each authenticated API request to the partner's request log. Records are buffered and
 * written in one statement per batch, at most FLUSH_DELAY_MS after the request ended: a database
 * write per request would cost every request a round trip, and the log may trail by a moment.
 * The memory store takes each record at once (nothing to save by waiting). Refusals for the rate
 * limits waiting in the buffer are counted into one record per key, method, route and minute, as
 * the log keeps them: a flood past the limits fills neither the buffer nor the statements.
 */
import { refusalKey, type RequestHistoryStore, type RequestRecord } from "./request-history-store.js";

const FLUSH_DELAY_MS = 250;
/** A burst is written in batches of at most this many rows. */
const MAX_BATCH = 500;
/** Records kept while the store does not answer; beyond it the oldest are dropped (the log is not worth a server's memory). */
const MAX_BUFFERED = 20_000;

export class RequestRecorder {
  private buffer: RequestRecord[] = [];
  /** The refusals' records in the buffer, by what makes them one; emptied with the buffer, so no record changes once it is handed to the store. */
  private refusalsBuffered = new Map<string, RequestRecord>();
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  /** A write failed and none succeeded since: one report per outage, not one per request. */
  private failing = false;

  constructor(
    private readonly store: () => RequestHistoryStore,
    /** Whether records wait to be written in batches (a database store). */
    private readonly batched: () => boolean,
    private readonly onFailure: (error: unknown) => void,
  ) {}

  record(record: RequestRecord): void {
    const key = refusalKey(record);
    const counted = key === null ? undefined : this.refusalsBuffered.get(key);
    if (counted !== undefined) {
      counted.count = (counted.count ?? 1) + 1;
      return;
    }
    if (key !== null) this.refusalsBuffered.set(key, record);
    this.buffer.push(record);
    if (this.buffer.length > MAX_BUFFERED) {
      this.buffer.splice(0, this.buffer.length - MAX_BUFFERED);
      // A refusal's record may be among those dropped: the next refusals start records of their own.
      this.refusalsBuffered = new Map();
    }
    if (!this.batched() || this.buffer.length >= MAX_BATCH) void this.flush();
    else this.flushSoon();
  }

  private flushSoon(): void {
    if (this.timer !== null) return;
    this.timer = setTimeout(() => void this.flush(), FLUSH_DELAY_MS);
    this.timer.unref();
  }

  /** Writes what is buffered; resolves when it is written (or its write failed and was reported). */
  flush(): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.buffer;
    this.buffer = [];
    this.refusalsBuffered = new Map();
    this.writing = this.writing.then(async () => {
      for (let i = 0; i < batch.length; i += MAX_BATCH) {
        const part = batch.slice(i, i + MAX_BATCH);
        try {
          await this.store().append(part);
          this.failing = false;
        } catch (error) {
          // Kept for the next flush, in order, unless newer records crowd them out.
          this.buffer = [...batch.slice(i), ...this.buffer].slice(-MAX_BUFFERED);
          if (!this.failing) this.onFailure(error);
          this.failing = true;
          this.flushSoon();
          return;
        }
      }
    });
    return this.writing;
  }
}
