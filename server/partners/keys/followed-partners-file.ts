/**
 * The keys a partners file holds for one environment, kept current while the server runs: a key
 * revoked or created with `npm run keys` counts from the very next request, without a restart.
 *
 * Every lookup first stats the file (one system call, a few microseconds) and compares device,
 * inode, size, modification and change time with the file last read; only when one differs is it
 * read again, parsed, and its keys swapped in whole. A watcher alone would not do: its events
 * arrive later, so the request right after a revocation could still pass.
 *
 * File times are only as fine as the filesystem's clock tick (a few milliseconds on Linux, up to
 * two seconds on some filesystems), so two writes within one tick may leave size and times alike.
 * As git does with its index ("racily clean" entries), a file read less than RACY_MS after its
 * modification time is read again and compared by content on each lookup, until a read comes late
 * enough that any later write must show in its times. Writes of `npm run keys` also change the
 * inode (scripts/keys.ts renames a complete new file over the old one).
 *
 * A file that cannot be read or parsed changes nothing: the keys read last stay in force and one
 * error line says why (never a 500 to the caller). A file that is removed holds no keys, as at
 * start-up.
 */
import { closeSync, fstatSync, openSync, readFileSync, statSync, type Stats } from "node:fs";
import { resolve } from "node:path";
import type { Logger } from "pino";
import type { Environment } from "../../../generated/deployment.js";
import type { Partner } from "./api-keys.js";
import { parsePartnersFile, PartnersFileError, type PartnersFile } from "./partners-file.js";

/** Longer than the coarsest file time in use (FAT's two seconds). */
const RACY_MS = 2_000;

export interface KeyEntry {
  hash: Buffer;
  partner: Partner;
}

/** A partner of the file with the number of keys it holds for each environment. */
export interface PartnerKeyCount {
  partner: Partner;
  keys: Record<Environment, number>;
}

export interface PartnersFileEvents {
  /** The file changed and its keys are now the ones in force. */
  reloaded(partners: PartnerKeyCount[]): void;
  /** The file changed but cannot be read or parsed; the keys read before stay in force. */
  refused(reason: string): void;
}

const sameFile = (a: Stats, b: Stats) =>
  a.ino === b.ino && a.dev === b.dev && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;

export class FollowedPartnersFile {
  readonly path: string;
  private keys = new Map<string, KeyEntry>();
  private counts: PartnerKeyCount[] = [];
  /** What was read last (null: no file) and the file's stat then. */
  private content: Buffer | null = null;
  private stats: Stats | null = null;
  private readAt = 0;
  private lastRefusal: string | null = null;
  /** Set once the first read is done: changes after it are reported. */
  private following = false;

  constructor(
    path: string,
    private readonly environment: Environment,
    private readonly events: PartnersFileEvents,
  ) {
    this.path = resolve(path);
    // At start-up an unreadable file stops the server rather than serve without its keys.
    const refusal = this.read();
    if (refusal !== null) throw new PartnersFileError(refusal);
    this.following = true;
  }

  /** The keys in force, by SHA-256 hash in hex; re-read first if the file changed. */
  current(): ReadonlyMap<string, KeyEntry> {
    let stats: Stats | undefined;
    try {
      stats = statSync(this.path, { throwIfNoEntry: false });
    } catch (error) {
      this.refuse(`cannot stat ${this.path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
      return this.keys;
    }
    if (stats === undefined) {
      if (this.content !== null) this.apply(null, null, null);
    } else if (this.stats === null || !sameFile(stats, this.stats) || this.readAt - stats.mtimeMs < RACY_MS) {
      const refusal = this.read();
      if (refusal !== null) this.refuse(refusal);
    }
    return this.keys;
  }

  /** Every partner of the file with its keys per environment, as read last. */
  partners(): readonly PartnerKeyCount[] {
    return this.counts;
  }

  /** Reads the file and applies it if its content changed; returns why it could not, or null. */
  private read(): string | null {
    const startedAt = Date.now();
    let fd: number;
    try {
      fd = openSync(this.path, "r");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") {
        if (this.content !== null) this.apply(null, null, null);
        return null;
      }
      return `cannot read ${this.path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
    }
    let stats: Stats;
    let content: Buffer;
    try {
      // The stat of the file read, before reading: a write after it shows in the next lookup's stat.
      stats = fstatSync(fd);
      content = readFileSync(fd);
    } catch (error) {
      return `cannot read ${this.path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
    } finally {
      closeSync(fd);
    }
    this.readAt = startedAt;
    if (this.content !== null && content.equals(this.content)) {
      this.stats = stats;
      return null;
    }
    let file: PartnersFile;
    try {
      file = parsePartnersFile(content.toString("utf8"), this.path);
    } catch (error) {
      // Remembered, so the same broken file is neither parsed nor reported again on each lookup.
      this.stats = stats;
      this.content = content;
      return (error as Error).message;
    }
    this.apply(file, content, stats);
    return null;
  }

  /** Makes the file's keys the ones in force; a null file (none on disk) holds none. */
  private apply(file: PartnersFile | null, content: Buffer | null, stats: Stats | null): void {
    const keys = new Map<string, KeyEntry>();
    const counts = new Map<string, PartnerKeyCount>();
    for (const entry of file?.partners ?? []) {
      const partner = { id: entry.id, name: entry.name };
      const count = counts.get(entry.id) ?? { partner, keys: { sandbox: 0, production: 0 } };
      count.keys[entry.environment] += entry.key_hashes.length;
      counts.set(entry.id, count);
      if (entry.environment !== this.environment) continue;
      for (const hash of entry.key_hashes) keys.set(hash, { hash: Buffer.from(hash, "hex"), partner });
    }
    // Swapped whole: a lookup sees the old keys or the new ones, never a mix.
    this.keys = keys;
    this.counts = [...counts.values()];
    this.content = content;
    this.stats = stats;
    this.lastRefusal = null;
    if (this.following) this.events.reloaded(this.counts);
  }

  private refuse(reason: string): void {
    if (reason === this.lastRefusal) return;
    this.lastRefusal = reason;
    this.events.refused(reason);
  }
}

/** The events as log lines: which keys are now in force, or why a changed file was not applied. */
export function loggedPartnersFileEvents(logger: Logger): PartnersFileEvents {
  return {
    reloaded: (partners) =>
      logger.info(
        { partners: partners.map(({ partner, keys }) => ({ id: partner.id, keys })) },
        "partners file changed: its keys are in force from this request on",
      ),
    refused: (reason) => logger.error({ reason }, "partners file changed but cannot be used; the keys read before stay in force"),
  };
}
