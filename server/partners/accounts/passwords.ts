/**
 * Password hashes: scrypt from node:crypto, memory-hard, with OWASP's parameters by default
 * (N = 2^17, r = 8, p = 1: 128 MiB and a quarter of a second per hash, which is what makes a stolen
 * table slow to attack). Each hash carries its own parameters and salt, so the cost can be raised
 * later without invalidating stored hashes: `scrypt$ln=17,r=8,p=1$<salt>$<hash>` (base64url).
 */
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

export const DEFAULT_COST = 17;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_LENGTH = 32;
/** Longer than any password a person types, short enough that hashing it costs no more than usual. */
export const MAX_PASSWORD_LENGTH = 256;
export const MIN_PASSWORD_LENGTH = 10;

const derive = (password: string, salt: Buffer, cost: number, r: number, p: number) =>
  new Promise<Buffer>((resolve, reject) =>
    scrypt(password.normalize("NFC"), salt, KEY_LENGTH, { N: 2 ** cost, r, p, maxmem: 2 ** cost * r * 256 }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );

export async function hashPassword(password: string, cost = DEFAULT_COST): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost, BLOCK_SIZE, PARALLELISM);
  return `scrypt$ln=${cost},r=${BLOCK_SIZE},p=${PARALLELISM}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

const FORMAT = /^scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

/** Whether the password is the one hashed; a hash this module did not write matches nothing. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const match = FORMAT.exec(stored);
  if (!match) return false;
  const [, cost, r, p, salt, hash] = match;
  const expected = Buffer.from(hash!, "base64url");
  const key = await derive(password, Buffer.from(salt!, "base64url"), Number(cost), Number(r), Number(p));
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** Why a new password cannot be used, or null. Length is what protects; no composition rules (NIST SP 800-63B). */
export function passwordProblem(password: string, email: string): string | null {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH) return `Use at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (length > MAX_PASSWORD_LENGTH) return `Use at most ${MAX_PASSWORD_LENGTH} characters.`;
  if (password.toLowerCase() === email.toLowerCase()) return "Choose a password other than your e-mail address.";
  return null;
}
