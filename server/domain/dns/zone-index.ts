/**
 * A zone's records as one request's checks see them, by id and by canonical name, each keyed once
 * when it enters: a bulk or a change set of many records checks each against its name's neighbours
 * without reading any record's content again.
 */
import type { DnsRecordRow } from "./record-store.js";
import { canonicalName, keyOf, type RecordKey } from "./record-rules.js";

interface Entry {
  row: DnsRecordRow;
  key: RecordKey;
}

export class ZoneIndex {
  private readonly byId = new Map<string, Entry>();
  private readonly byName = new Map<string, Map<string, Entry>>();

  constructor(rows: readonly DnsRecordRow[]) {
    for (const row of rows) this.put(row);
  }

  get size(): number {
    return this.byId.size;
  }

  find(id: string): DnsRecordRow | undefined {
    return this.byId.get(id)?.row;
  }

  /** The records of a name and type (a record set), in the order they entered. */
  set(name: string, type: DnsRecordRow["type"]): DnsRecordRow[] {
    return [...(this.byName.get(canonicalName(name))?.values() ?? [])].filter((entry) => entry.row.type === type).map((entry) => entry.row);
  }

  /** The keys of the records at a name but `except`: what a record there must not conflict with. */
  atName(name: string, except?: string): RecordKey[] {
    return [...(this.byName.get(canonicalName(name))?.values() ?? [])].filter((entry) => entry.row.id !== except).map((entry) => entry.key);
  }

  /** Adds or replaces a record; `key` is the parsed record it was written from, when there is one. */
  put(row: DnsRecordRow, key: RecordKey = keyOf(row)): void {
    this.remove(row.id);
    const entry = { row, key };
    this.byId.set(row.id, entry);
    const atName = this.byName.get(key.name) ?? new Map<string, Entry>();
    atName.set(row.id, entry);
    this.byName.set(key.name, atName);
  }

  remove(id: string): void {
    const entry = this.byId.get(id);
    if (!entry) return;
    this.byId.delete(id);
    this.byName.get(entry.key.name)?.delete(id);
  }
}
