/**
 * The reviewed list of breaks of v1 since the last release (releases/accepted-breaks.yml): each
 * names the changes of Redocly's report it accepts, why, and the CHANGELOG.md entry that tells
 * partners. The breaking-change gate (scripts/spec-diff.ts) fails on any other break.
 */
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { CHANGELOG_PATH } from "./changelog.js";
import type { SpecChange } from "./spec-diff.js";

export const ACCEPTED_BREAKS_PATH = "releases/accepted-breaks.yml";

export interface AcceptedBreak {
  id: string;
  /** Redocly's rule of the change, exactly. */
  rule: string;
  /** Regular expressions the change's report path and message must match. */
  path: RegExp;
  message: RegExp;
  reason: string;
  /** Text of CHANGELOG.md that records it: the gate requires it there. */
  changelog: string;
}

const FIELDS = ["id", "rule", "path", "message", "reason", "changelog"] as const;

/** The list, every entry whole and its changelog text in the changelog; throws naming what is wrong. */
export function readAcceptedBreaks(path = ACCEPTED_BREAKS_PATH, changelogPath = CHANGELOG_PATH): AcceptedBreak[] {
  const entries = (parse(readFileSync(path, "utf8")) ?? []) as unknown;
  if (!Array.isArray(entries)) throw new Error(`${path}: a list of accepted breaks is expected`);
  const changelog = readFileSync(changelogPath, "utf8");
  const ids = new Set<string>();
  return entries.map((entry: Record<string, unknown>, index) => {
    for (const field of FIELDS)
      if (typeof entry?.[field] !== "string" || !(entry[field] as string).trim())
        throw new Error(`${path}: entry ${index + 1} has no ${field}`);
    const id = entry.id as string;
    if (ids.has(id)) throw new Error(`${path}: ${id} is listed twice`);
    ids.add(id);
    if (!changelog.includes(entry.changelog as string))
      throw new Error(`${path}: ${id}: its changelog entry is not in ${changelogPath}: ${entry.changelog}`);
    return {
      id,
      rule: entry.rule as string,
      path: new RegExp(entry.path as string),
      message: new RegExp(entry.message as string),
      reason: entry.reason as string,
      changelog: entry.changelog as string,
    };
  });
}

export const accepts = (entry: AcceptedBreak, change: SpecChange) =>
  change.rule === entry.rule && entry.path.test(change.path) && entry.message.test(change.message);

export interface Judgement {
  /** Breaks no entry accepts: the gate fails on them. */
  unaccepted: SpecChange[];
  /** Per entry id, the breaks it accepted. */
  accepted: Map<string, SpecChange[]>;
}

/** Sorts the major changes of one document into accepted and not. */
export function judgeBreaks(majors: SpecChange[], list: AcceptedBreak[]): Judgement {
  const judgement: Judgement = { unaccepted: [], accepted: new Map() };
  for (const change of majors) {
    const entry = list.find((candidate) => accepts(candidate, change));
    if (!entry) judgement.unaccepted.push(change);
    else judgement.accepted.set(entry.id, [...(judgement.accepted.get(entry.id) ?? []), change]);
  }
  return judgement;
}
