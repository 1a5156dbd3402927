/** TLSA content (RFC 6698 2.1): `usage selector matching-type data`, the data's length fixed by its digest. */

export interface TlsaParts {
  usage: number;
  selector: number;
  matchingType: number;
  /** Lower-case hexadecimal without spaces. */
  data: string;
}

export type TlsaReading = { tlsa: TlsaParts; canonical: string } | { problem: string };

/** Hex digits the data must have per matching type: SHA-256 and SHA-512 digests (RFC 6698 2.1.3); 0 is the full value. */
const DIGEST_DIGITS: Readonly<Record<number, number>> = { 1: 64, 2: 128 };

const field = (text: string | undefined, max: number) =>
  text !== undefined && /^\d$/.test(text) && Number(text) <= max ? Number(text) : null;

export function readTlsa(content: string): TlsaReading {
  const [usageText, selectorText, typeText, ...dataParts] = content.trim().split(/\s+/);
  const usage = field(usageText, 3);
  const selector = field(selectorText, 1);
  const matchingType = field(typeText, 2);
  if (usage === null || selector === null || matchingType === null || dataParts.length === 0) {
    return {
      problem:
        "content must be 'usage selector matching-type data' for TLSA records: usage 0 to 3, selector 0 or 1, matching type 0 to 2, data in hexadecimal",
    };
  }
  const data = dataParts.join("").toLowerCase();
  if (!/^[0-9a-f]+$/.test(data)) return { problem: "TLSA data must be hexadecimal digits" };
  const digits = DIGEST_DIGITS[matchingType];
  if (digits !== undefined && data.length !== digits) {
    return { problem: `TLSA data of matching type ${matchingType} must be ${digits} hexadecimal digits (a ${digits * 4}-bit digest)` };
  }
  if (data.length % 2 !== 0) return { problem: "TLSA data must be whole bytes: an even number of hexadecimal digits" };
  const tlsa = { usage, selector, matchingType, data };
  return { tlsa, canonical: `${usage} ${selector} ${matchingType} ${data}` };
}

/** RFC 6698 3: the owner of a TLSA record is `_port._protocol` before the host (`_443._tcp.www`). */
export function isTlsaName(name: string): boolean {
  const match = /^_(\d{1,5})\._(tcp|udp|sctp)(?:\.|$)/i.exec(name);
  return match !== null && !/^0\d/.test(match[1]!) && Number(match[1]) <= 65535;
}
