/**
 * What the world would resolve for a domain on custom nameservers, simulated in the sandbox by the
 * nameservers' magic zones (the Sandbox tag's table). Outside them, and in production, the service
 * cannot know: the check says so rather than guess.
 */
import type { ConnectionRequirement } from "./connection-requirements.js";
import { recordsWanted, type CheckedRecord } from "./connection-check.js";

export const SANDBOX_DNS_ZONE = "sandbox-dns.test";
export const MAGIC_ZONES = ["correct", "misconfigured", "propagating", "unreachable"] as const;
export type MagicZone = (typeof MAGIC_ZONES)[number];
/** How long after nameservers take effect resolvers of the `propagating` zone still answer the old ones. */
export const PROPAGATION_MS = 60 * 60 * 1000;
/** What the `misconfigured` zone answers instead of the partner's addresses and targets. */
export const MISCONFIGURED_ADDRESS = { A: "198.51.100.66", AAAA: "2001:db8::66" } as const;
export const MISCONFIGURED_TARGET = `parked.${SANDBOX_DNS_ZONE}`;

/** The magic zone every one of the nameservers is under, or null (none, or several). */
export function magicZoneOf(nameservers: readonly string[]): MagicZone | null {
  const zones = new Set(
    nameservers.map(
      (host) => MAGIC_ZONES.find((zone) => host.toLowerCase().replace(/\.$/, "").endsWith(`.${zone}.${SANDBOX_DNS_ZONE}`)) ?? null,
    ),
  );
  const [only] = zones;
  return zones.size === 1 && only ? only : null;
}

export type SimulatedAnswer =
  | { kind: "records"; records: CheckedRecord[] }
  /** Resolvers still answer the nameservers before; they see the new ones from `until` (null: not yet in effect). */
  | { kind: "propagating"; until: Date | null }
  | { kind: "no_answer" };

const asRecords = (requirements: readonly ConnectionRequirement[]): CheckedRecord[] =>
  requirements
    .flatMap((requirement) => recordsWanted(requirement, 300))
    .map((fix) => ({ id: null, type: fix.record!.type, name: fix.record!.name, content: fix.record!.content }));

function misconfigured(requirements: readonly ConnectionRequirement[]): CheckedRecord[] {
  return requirements.flatMap((requirement): CheckedRecord[] => {
    if (requirement.kind === "apex" && requirement.addresses) return [{ id: null, type: "A", name: "@", content: MISCONFIGURED_ADDRESS.A }];
    if (requirement.kind === "apex") return [{ id: null, type: "ALIAS", name: "@", content: MISCONFIGURED_TARGET }];
    if (requirement.kind === "www") return [{ id: null, type: "CNAME", name: "www", content: MISCONFIGURED_TARGET }];
    return [];
  });
}

/** What the zone's nameservers answer at `now`, for nameservers that took effect at `appliedAt`. */
export function simulatedAnswer(
  zone: MagicZone,
  requirements: readonly ConnectionRequirement[],
  appliedAt: Date | null,
  now: Date,
): SimulatedAnswer {
  switch (zone) {
    case "correct":
      return { kind: "records", records: asRecords(requirements) };
    case "misconfigured":
      return { kind: "records", records: misconfigured(requirements) };
    case "unreachable":
      return { kind: "no_answer" };
    case "propagating": {
      const until = appliedAt && new Date(appliedAt.getTime() + PROPAGATION_MS);
      return until && until <= now ? { kind: "records", records: asRecords(requirements) } : { kind: "propagating", until };
    }
  }
}
