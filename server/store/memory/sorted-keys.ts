/**
 * Keys kept in the order of a comparator, for paging without sorting. The keys live in chunks of
 * at most 2 × CHUNK sorted keys: an insert or removal is a binary search for the chunk, one within
 * it and a splice of at most that many keys, so its cost hardly grows with the keys held (`npm run
 * bench:scale`, bench/results/); a page walks the chunk sizes to its offset. The comparator reads the rows as stored, so a key must
 * be removed before its row changes and inserted after.
 */
const CHUNK = 512;

export class SortedKeys<K> {
  private chunks: K[][] = [];
  private count = 0;

  constructor(private readonly compare: (a: K, b: K) => number) {}

  get size(): number {
    return this.count;
  }

  /** The chunk a key belongs in: the first whose last key does not sort before it (or the last chunk). */
  private chunkFor(key: K): number {
    let low = 0;
    let high = this.chunks.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const chunk = this.chunks[middle]!;
      if (this.compare(chunk[chunk.length - 1]!, key) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  private lowerBound(chunk: K[], key: K): number {
    let low = 0;
    let high = chunk.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.compare(chunk[middle]!, key) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  insert(key: K): void {
    this.count++;
    if (this.chunks.length === 0) {
      this.chunks.push([key]);
      return;
    }
    const index = this.chunkFor(key);
    const chunk = this.chunks[index]!;
    chunk.splice(this.lowerBound(chunk, key), 0, key);
    if (chunk.length > 2 * CHUNK) this.chunks.splice(index, 1, chunk.slice(0, CHUNK), chunk.slice(CHUNK));
  }

  /** Removes the key, found by its current sort values; a key not held is ignored. */
  remove(key: K): void {
    if (this.chunks.length === 0) return;
    // Equal sort values can straddle chunks: look from the first chunk that may hold the key on.
    for (let c = this.chunkFor(key); c < this.chunks.length; c++) {
      const chunk = this.chunks[c]!;
      let i = this.lowerBound(chunk, key);
      for (; i < chunk.length && this.compare(chunk[i]!, key) === 0; i++) {
        if (chunk[i] !== key) continue;
        chunk.splice(i, 1);
        this.count--;
        if (chunk.length === 0) this.chunks.splice(c, 1);
        return;
      }
      if (i < chunk.length) return;
    }
  }

  /** At most `limit` keys that sort after `key` (held or not), in order: a page that starts after a cursor. */
  after(key: K, limit: number): K[] {
    return this.following((held) => this.compare(held, key), limit);
  }

  /**
   * At most `limit` keys that sort after a place in the order, in order, found by binary search:
   * `fromPlace(held)` is above 0 for a key after the place. For a place no key can stand for, such
   * as a cursor's position whose user is gone (the comparator reads the rows of the keys it holds).
   */
  following(fromPlace: (held: K) => number, limit: number): K[] {
    const page: K[] = [];
    let c = this.firstChunkAfter(fromPlace);
    if (c === this.chunks.length) return page;
    for (let i = this.upperBound(this.chunks[c]!, fromPlace); c < this.chunks.length && page.length < limit; c++, i = 0) {
      page.push(...this.chunks[c]!.slice(i, i + limit - page.length));
    }
    return page;
  }

  /** The first chunk whose last key sorts after the place. */
  private firstChunkAfter(fromPlace: (held: K) => number): number {
    let low = 0;
    let high = this.chunks.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const chunk = this.chunks[middle]!;
      if (fromPlace(chunk[chunk.length - 1]!) <= 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  private upperBound(chunk: K[], fromPlace: (held: K) => number): number {
    let low = 0;
    let high = chunk.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (fromPlace(chunk[middle]!) <= 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  page(offset: number, limit: number): K[] {
    const page: K[] = [];
    let skip = offset;
    for (const chunk of this.chunks) {
      if (skip >= chunk.length) {
        skip -= chunk.length;
        continue;
      }
      page.push(...chunk.slice(skip, skip + limit - page.length));
      skip = 0;
      if (page.length === limit) break;
    }
    return page;
  }
}
