/**
 * The repository paths that prose names: in Markdown files, and in the comments of source files.
 * A path named in a comment or a README is a promise to the reader that it is there; these are read
 * so that a test can hold every one of them to it.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";

export interface NamedPath {
  /** Repository-relative file that names the path. */
  file: string;
  line: number;
  path: string;
}

const SKIPPED = new Set(["node_modules", "dist", "test-output", "releases", ".build", ".git", ".stryker-tmp", "reports"]);
const SOURCE_FILE = /\.(?:ts|mts|cts|mjs|cjs|js)$/;
const EXTENSIONS = "ts|mts|cts|mjs|cjs|js|md|ya?ml|json|jsonc|sql|css|html|patch|sh|xml|txt|tgz";
/** A file named with a folder in front (`dns/record-rules.ts`, `../docs/decisions.md`), not part of a URL or a longer path. */
const FILE_PATH = new RegExp(`(?<![\\w/.:@$~-])((?:\\.{1,2}/)*(?:[\\w@-][\\w.@-]*/)+[\\w-][\\w.-]*\\.(?:${EXTENSIONS}))(?![\\w/-])`, "g");
/** A folder in backticks (`store/postgres/`): prose names folders so, and bare words ending in "/" are too often not paths. */
const FOLDER_PATH = /`((?:\.{1,2}\/)*[\w-][\w.-]*\/(?:[\w-][\w.-]*\/)*)`/g;
/** Names that are not in the repository by design: build output, scratch folders, what a machine or a command has. */
const NOT_IN_THE_REPOSITORY =
  /^(?:dist|client\/dist|test-output|node_modules|reports|\.stryker-tmp|tmp|\$|~)\/|\*|\{|<|(?:^|[/_-])[A-Z]{3,}(?:[/._-]|$)/;

function filesUnder(root: string, folder: string, pattern: RegExp): string[] {
  return readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name) || (entry.name.startsWith(".") && entry.name !== ".ci")) return [];
    const path = folder ? join(folder, entry.name) : entry.name;
    if (entry.isDirectory()) return filesUnder(root, path, pattern);
    return pattern.test(entry.name) ? [path] : [];
  });
}

/**
 * The comment text of a source, its other characters blanked so that line numbers stay: a scan
 * that knows strings, template literals and comments, so "//" in a URL string is not a comment and
 * backticks in a comment are prose. (A regular expression literal with a quote in it can hide the
 * rest of its line: paths missed, never paths made up.)
 */
export function commentsOf(source: string): string {
  let out = "";
  let state: "code" | "line" | "block" | "'" | '"' | "`" = "code";
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    const next = source[i + 1];
    if (char === "\n") {
      if (state === "line" || state === "'" || state === '"') state = "code";
      out += char;
      continue;
    }
    if (state === "code") {
      if (char === "/" && next === "/") state = "line";
      else if (char === "/" && next === "*") state = "block";
      else if (char === "'" || char === '"' || char === "`") state = char;
    } else if (state === "block" && char === "*" && next === "/") {
      out += "*/";
      i++;
      state = "code";
      continue;
    } else if ((state === "'" || state === '"' || state === "`") && char === "\\") {
      out += "  ";
      i++;
      continue;
    } else if (state === char) {
      state = "code";
      out += " ";
      continue;
    }
    out += state === "line" || state === "block" ? char : " ";
  }
  return out;
}

/** Each path a text names, with its line. */
export function pathsNamedIn(text: string): Array<{ line: number; path: string }> {
  const found: Array<{ line: number; path: string }> = [];
  text.split("\n").forEach((content, index) => {
    for (const pattern of [FILE_PATH, FOLDER_PATH])
      for (const match of content.matchAll(pattern)) found.push({ line: index + 1, path: match[1]! });
  });
  return found;
}

/** Every path named in the repository's Markdown and comments that its reader could look for. */
export function namedPaths(root: string): NamedPath[] {
  const markdown = filesUnder(root, "", /\.md$/).map((file) => ({ file, text: readFileSync(join(root, file), "utf8") }));
  const sources = ["server", "client/src", "conformance/src", "scripts", "test", "bench", ".ci"]
    .filter((folder) => existsSync(join(root, folder)))
    .flatMap((folder) => filesUnder(root, folder, new RegExp(`${SOURCE_FILE.source}|^run$`)))
    .map((file) => ({ file, text: commentsOf(readFileSync(join(root, file), "utf8")) }));
  return [...markdown, ...sources].flatMap(({ file, text }) =>
    pathsNamedIn(text)
      .filter(({ path }) => !NOT_IN_THE_REPOSITORY.test(path))
      .map(({ line, path }) => ({ file, line, path })),
  );
}

/** The packages whose files the server's comments name: the patches of validator/ point into them. */
const NAMED_PACKAGES = ["node_modules/express-openapi-validator/dist"];

/**
 * Whether named paths are there: read from the repository's root, from the naming file's folder or
 * one of its parents (a server module names `dns/record-rules.ts` from server/), or as the end of a path
 * of the repository or of a package the comments name (a table of `spec/`'s folders names `paths/`).
 */
export function pathChecker(root: string): (named: NamedPath) => boolean {
  const everything = [...filesUnder(root, "", /./), ...NAMED_PACKAGES.flatMap((folder) => filesUnder(root, folder, /./))];
  const known = new Set(everything.flatMap((file) => [file, ...ancestorsOf(file).map((folder) => `${folder}/`)]));
  const endings = new Set([...known].flatMap((path) => path.split("/").map((_, index, parts) => parts.slice(index).join("/"))));
  return ({ file, path }) => {
    // An import's spelling: `x.js` names the module `x.ts`.
    const spellings = [path, path.replace(/\.js$/, ".ts")];
    if (!path.startsWith(".") && spellings.some((spelling) => endings.has(spelling.replace(/^(?:\.{1,2}\/)+/, "")))) return true;
    const bases = [""];
    for (let folder = dirname(file); folder !== "."; folder = dirname(folder)) bases.push(folder);
    return bases.some((base) =>
      spellings.some((spelling) => {
        const candidate = normalize(join(base, spelling));
        return !candidate.startsWith("..") && existsSync(join(root, candidate));
      }),
    );
  };
}

function ancestorsOf(file: string): string[] {
  const folders: string[] = [];
  for (let folder = dirname(file); folder !== "."; folder = dirname(folder)) folders.push(folder);
  return folders;
}
