/**
 * HTTPS and SVCB content (RFC 9460): `priority target params`. Each parameter is checked against
 * its key's form and written in one spelling, in the order of the key numbers (RFC 9460 2.2), so
 * two spellings of one binding are one record.
 */
import { canonicalIPv4, readIPv6 } from "./ip-addresses.js";
import { canonicalHostName, isHostName } from "./host-names.js";

export interface SvcbParts {
  /** 0 is AliasMode, 1 to 65535 ServiceMode. */
  priority: number;
  /** Canonical host name, or `.` (the owner itself in ServiceMode, "no service" in AliasMode). */
  target: string;
  /** Canonical `key=value` (or `key`) terms, in key-number order. */
  params: string[];
}

export type SvcbReading = { svcb: SvcbParts; canonical: string } | { problem: string };

/** The keys of the IANA "Service Parameter Keys (SvcParamKeys)" registry RFC 9460 14.3.2 set up, by number. */
const KEY_NUMBERS: Readonly<Record<string, number>> = {
  mandatory: 0,
  alpn: 1,
  "no-default-alpn": 2,
  port: 3,
  ipv4hint: 4,
  ech: 5,
  ipv6hint: 6,
};
const KEY_NAMES = Object.keys(KEY_NUMBERS);
/** RFC 9460 14.3.2: 65535 is the "invalid key". */
const LAST_KEY = 65534;

const commaList = (value: string) => value.split(",");

/** A value's canonical spelling, or why it is not its key's. */
type ValueReading = { value: string | null } | { problem: string };

function keyNumber(key: string): number | null {
  if (Object.hasOwn(KEY_NUMBERS, key)) return KEY_NUMBERS[key]!;
  const generic = /^key(0|[1-9]\d{0,4})$/.exec(key);
  return generic ? Number(generic[1]) : null;
}

function readValue(key: string, value: string | null): ValueReading {
  const needsValue = (check: (text: string) => string | null, form: string): ValueReading => {
    const canonical = value === null || value === "" ? null : check(value);
    return canonical === null ? { problem: `the SVCB parameter ${key} must be ${form}` } : { value: canonical };
  };
  switch (key) {
    case "mandatory":
      return needsValue((text) => {
        const keys = commaList(text);
        if (keys.some((listed) => listed === "mandatory" || keyNumber(listed) === null) || new Set(keys).size !== keys.length) return null;
        return keys.sort((a, b) => keyNumber(a)! - keyNumber(b)!).join(",");
      }, "a comma list of other keys, each once");
    case "alpn":
      return needsValue((text) => {
        const ids = commaList(text);
        return ids.every((id) => /^[\x21-\x7e]{1,255}$/.test(id)) ? text : null;
      }, "a comma list of protocol ids, such as h2,h3");
    case "no-default-alpn":
      return value === null ? { value: null } : { problem: "the SVCB parameter no-default-alpn takes no value" };
    case "port":
      return needsValue((text) => (/^\d{1,5}$/.test(text) && Number(text) <= 65535 ? String(Number(text)) : null), "a port, 0 to 65535");
    case "ipv4hint":
      return needsValue((text) => {
        const addresses = commaList(text).map(canonicalIPv4);
        return addresses.every((address) => address !== null) ? addresses.join(",") : null;
      }, "a comma list of IPv4 addresses");
    case "ipv6hint":
      return needsValue((text) => {
        const addresses = commaList(text).map(readIPv6);
        return addresses.every((reading) => reading.kind === "address")
          ? addresses.map((reading) => (reading.kind === "address" ? reading.canonical : "")).join(",")
          : null;
      }, "a comma list of IPv6 addresses");
    case "ech":
      return needsValue((text) => (/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text) ? text : null), "base64");
    default:
      return value === null || /^[\x21-\x7e]+$/.test(value) ? { value } : { problem: `the SVCB parameter ${key} must be printable text` };
  }
}

/** One `key=value` term read, or why not. */
function readParam(term: string): { number: number; text: string } | { problem: string } {
  const match = /^([a-z0-9-]+)(?:=(?:"([^"\\\s]*)"|([^"\\\s]*)))?$/.exec(term);
  const key = match?.[1];
  const number = key === undefined ? null : keyNumber(key);
  if (!match || key === undefined || number === null || number > LAST_KEY) {
    return { problem: `${JSON.stringify(term)} is not an SVCB parameter: the keys are ${KEY_NAMES.join(", ")} and key7 to key${LAST_KEY}` };
  }
  if (key.startsWith("key") && number < KEY_NAMES.length)
    return { problem: `write the SVCB parameter ${key} by its name, ${KEY_NAMES[number]}` };
  const raw = match[2] ?? match[3] ?? null;
  const reading = readValue(key, raw);
  if ("problem" in reading) return reading;
  return { number, text: reading.value === null ? key : `${key}=${reading.value}` };
}

export function readSvcb(content: string, type: "HTTPS" | "SVCB"): SvcbReading {
  const [priorityText, target, ...terms] = content.trim().split(/\s+/);
  const priority = priorityText !== undefined && /^\d{1,5}$/.test(priorityText) ? Number(priorityText) : NaN;
  if (!(priority <= 65535) || target === undefined || (target !== "." && !isHostName(target))) {
    return {
      problem: `content must be 'priority target params' for ${type} records: priority 0 to 65535, target a host name or .`,
    };
  }
  if (priority === 0 && terms.length > 0) {
    return { problem: `a ${type} record of priority 0 (AliasMode) takes no parameters: it only names another host` };
  }
  const params = new Map<number, string>();
  for (const term of terms) {
    const param = readParam(term);
    if ("problem" in param) return param;
    if (params.has(param.number)) return { problem: `the SVCB parameter ${term.split("=")[0]} must not be given twice` };
    params.set(param.number, param.text);
  }
  const mandatory = params.get(0);
  if (mandatory && !commaList(mandatory.slice("mandatory=".length)).every((key) => params.has(keyNumber(key)!))) {
    return { problem: "every key listed in mandatory must be given in the record" };
  }
  if (params.has(2) && !params.has(1)) return { problem: "no-default-alpn needs alpn in the same record" };
  const ordered = [...params.entries()].sort(([a], [b]) => a - b).map(([, text]) => text);
  const svcb = { priority, target: target === "." ? "." : canonicalHostName(target), params: ordered };
  return { svcb, canonical: [String(priority), svcb.target, ...ordered].join(" ") };
}
