/**
 * A StrykerJS ignorer for code whose mutants no HTTP client of the API can observe, each with its
 * reason (test/mutation/unobservable-code.mjs): code the API does not reach (the dashboard's and
 * `npm run keys`' key making, the embedded interface's own purchase and renewal), and second
 * guards and equivalent spellings where the API answers the same either way. Stryker reports
 * their mutants as ignored, with the reason, so the score is the kit's catch rate on code it can
 * judge; the list is reviewed like code, and docs/mutation-testing.md explains each entry.
 */
import { relative, sep } from "node:path";
import { declareValuePlugin, PluginKind } from "@stryker-mutator/api/plugin";
import { UNOBSERVABLE_CODE } from "./unobservable-code.mjs";

/** The mutated file's path from the checkout's root (the sandbox's root when Stryker runs). */
const fileOf = (path) =>
  relative(process.cwd(), path.hub?.file?.opts?.filename ?? "")
    .split(sep)
    .join("/");

/** The name a function goes by: its declaration's, or the variable or property it is assigned to. */
function functionName(path) {
  const { node, parent } = path;
  if (node.id?.name) return node.id.name;
  if (parent?.type === "VariableDeclarator" && parent.id.type === "Identifier") return parent.id.name;
  if ((parent?.type === "ObjectProperty" || parent?.type === "ClassMethod") && parent.key?.type === "Identifier") return parent.key.name;
  if (node.type === "ClassMethod" || node.type === "ObjectMethod") return node.key?.name;
  return undefined;
}

const oneSpaced = (source) => source.replace(/\s+/g, " ");

/**
 * Whether the node at `path` is an entry's function, or a node (statement, expression, parameter,
 * block) whose source begins with its code. Only the node itself: Stryker ignores everything inside
 * an ignored node without asking again (its IgnorerBookkeeper).
 */
function matches(entry, path) {
  if (entry.function !== undefined) return path.isFunction() && functionName(path) === entry.function;
  return oneSpaced(path.getSource()).startsWith(oneSpaced(entry.code));
}

const unobservableIgnorer = {
  shouldIgnore(path) {
    const entries = UNOBSERVABLE_CODE.filter((entry) => entry.file === fileOf(path));
    for (const entry of entries) if (matches(entry, path)) return entry.reason;
    return undefined;
  },
};

export const strykerPlugins = [declareValuePlugin(PluginKind.Ignore, "unobservable-code", unobservableIgnorer)];
