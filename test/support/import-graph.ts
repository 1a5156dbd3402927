/**
 * The repository's relative imports, file to file, read from the sources with a regular expression:
 * static imports and re-exports (type-only ones too, since they tie the layers just the same) and
 * dynamic `import()`s. Package imports ("express", "node:fs") are not edges between our folders.
 * The spec's edges are its references to other files (`$ref: paths/api_v1_users.yml`).
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";

export interface ImportEdge {
  /** Repository-relative path of the importing file, e.g. `server/assembly/app.ts`. */
  from: string;
  /** Repository-relative path imported, as written but resolved: `generated/deployment.js`. */
  to: string;
}

const SOURCE_FILE = /\.(?:ts|mts|cts|mjs|js)$/;
const SPEC_FILE = /\.ya?ml$/;
// A `$ref` to another file (not "#/…" inside this one), quoted or not; the fragment is dropped.
const FILE_REFERENCE = /\$ref:\s*["']?([^"'#\s][^"'#\s]*)/g;
const SKIPPED = new Set(["node_modules", "dist", ".build"]);
// `import … from "x"`, `export … from "x"` (across lines), `import "x"` and `import("x")`.
const SPECIFIERS = [
  /^\s*(?:import|export)\b[^;"'`]*?\bfrom\s*["']([^"']+)["']/gm,
  /^\s*import\s*["']([^"']+)["']/gm,
  /\bimport\(\s*["']([^"']+)["']\s*\)/g,
];

function sourceFiles(root: string, folder: string, pattern = SOURCE_FILE): string[] {
  return readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name) || entry.name.startsWith(".")) return [];
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(root, path, pattern);
    return pattern.test(entry.name) ? [path] : [];
  });
}

const specifiersOf = (source: string) => SPECIFIERS.flatMap((pattern) => [...source.matchAll(pattern)].map((match) => match[1]!));

/** The specifiers a source text imports, relative ones only. */
export function relativeSpecifiers(source: string): string[] {
  return specifiersOf(source).filter((specifier) => specifier.startsWith("."));
}

/** The packages a source text imports, by name (`express`, `@electric-sql/pglite`), Node's own (`node:fs`) left out. */
export function packageImports(source: string): string[] {
  return specifiersOf(source)
    .filter((specifier) => !specifier.startsWith(".") && !specifier.startsWith("node:"))
    .map((specifier) =>
      specifier
        .split("/")
        .slice(0, specifier.startsWith("@") ? 2 : 1)
        .join("/"),
    );
}

/** Each source file under `folder` with the packages it imports. */
export function packageImportsUnder(root: string, folder: string): Array<{ from: string; packageName: string }> {
  return sourceFiles(root, folder).flatMap((from) =>
    packageImports(readFileSync(join(root, from), "utf8")).map((packageName) => ({ from: from.split("\\").join("/"), packageName })),
  );
}

/** The files a spec document refers to, as written. */
export function fileReferences(source: string): string[] {
  return [...source.matchAll(FILE_REFERENCE)].map((match) => match[1]!);
}

const edge = (root: string, from: string, specifier: string): ImportEdge => ({
  from: from.split("\\").join("/"),
  to: relative(root, normalize(join(root, dirname(from), specifier)))
    .split("\\")
    .join("/"),
});

/** Every relative import of every source file under the given top-level folders, and every file reference of spec/. */
export function importEdges(root: string, folders: readonly string[]): ImportEdge[] {
  return folders.flatMap((folder) =>
    folder === "spec"
      ? sourceFiles(root, folder, SPEC_FILE).flatMap((from) =>
          fileReferences(readFileSync(join(root, from), "utf8")).map((to) => edge(root, from, to)),
        )
      : sourceFiles(root, folder).flatMap((from) =>
          relativeSpecifiers(readFileSync(join(root, from), "utf8")).map((to) => edge(root, from, to)),
        ),
  );
}

const moduleFolder = (path: string) => path.slice(0, path.lastIndexOf("/"));

/** The cycles between folders of the server, each as its folders and one import of each step. */
export function folderCycles(edges: readonly ImportEdge[]): string[][] {
  const graph = new Map<string, Map<string, string>>();
  for (const { from, to } of edges) {
    if (!from.startsWith("server/") || !to.startsWith("server/")) continue;
    const [a, b] = [moduleFolder(from), moduleFolder(to)];
    if (a === b) continue;
    if (!graph.has(a)) graph.set(a, new Map());
    if (!graph.get(a)!.has(b)) graph.get(a)!.set(b, `${from} -> ${to}`);
  }
  // Tarjan's strongly connected components: a component of more than one folder is a cycle.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return components.map((component) =>
    component.flatMap((folder) => [...(graph.get(folder) ?? [])].filter(([next]) => component.includes(next)).map(([, why]) => why)),
  );
}
