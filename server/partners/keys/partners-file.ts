/**
 * The partners file: the partners of a deployment with the SHA-256 hashes of their API keys, per
 * environment, written by `npm run keys` (scripts/keys.ts) and read by the server at start-up and
 * again whenever it changes (server/partners/keys/followed-partners-file.ts). A later issue moves keys to
 * PostgreSQL; until then this file is where keys are created and revoked.
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { basename, dirname, join } from "node:path";
import type { Environment } from "../../../generated/deployment.js";

export interface PartnerEntry {
  id: string;
  name: string;
  environment: Environment;
  key_hashes: string[];
  /** Origins of the partner's application allowed to frame the embedded interface. */
  embed_origins?: string[];
}

export interface PartnersFile {
  partners: PartnerEntry[];
}

/** A partners file that cannot be read or does not have the shape above; the message names the file. */
export class PartnersFileError extends Error {}

const KEY_HASH = /^[0-9a-f]{64}$/;

const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === "string");

/** Checks the shape entry by entry, so a hand edit gone wrong is named, not met later as a crash. */
export function parsePartnersFile(text: string, path: string): PartnersFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new PartnersFileError(`${path} is not valid JSON (${(error as Error).message})`);
  }
  const partners = (parsed as { partners?: unknown } | null)?.partners;
  if (!Array.isArray(partners)) throw new PartnersFileError(`${path} must hold { "partners": [...] }`);
  partners.forEach((entry: Partial<Record<keyof PartnerEntry, unknown>> | null, index) => {
    const where = `${path}: partners[${index}]`;
    if (typeof entry !== "object" || entry === null) throw new PartnersFileError(`${where} must be an object`);
    if (typeof entry.id !== "string" || entry.id === "") throw new PartnersFileError(`${where}.id must be a non-empty string`);
    if (typeof entry.name !== "string") throw new PartnersFileError(`${where}.name must be a string`);
    if (entry.environment !== "sandbox" && entry.environment !== "production")
      throw new PartnersFileError(`${where}.environment must be sandbox or production`);
    if (!isStringList(entry.key_hashes) || !entry.key_hashes.every((hash) => KEY_HASH.test(hash))) {
      throw new PartnersFileError(`${where}.key_hashes must be a list of SHA-256 hashes (64 lower-case hex digits)`);
    }
    if (entry.embed_origins !== undefined && !isStringList(entry.embed_origins))
      throw new PartnersFileError(`${where}.embed_origins must be a list of origins`);
  });
  return { partners: partners as PartnerEntry[] };
}

/** The file's partners; a file that does not exist holds none. */
export function readPartnersFile(path: string): PartnersFile {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { partners: [] };
    throw new PartnersFileError(`cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  return parsePartnersFile(text, path);
}

/**
 * Replaces the file in one step: written in full to a temporary file beside it, flushed, then
 * renamed over it. A server reading it at any moment sees the old file or the new one, never half.
 */
export function writePartnersFile(path: string, file: PartnersFile): void {
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    const fd = openSync(temporary, "wx", 0o600);
    try {
      writeSync(fd, `${JSON.stringify(file, null, 2)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } finally {
    rmSync(temporary, { force: true });
  }
}
