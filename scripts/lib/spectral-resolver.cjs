/**
 * The `$ref` resolver `npm run lint:owasp` gives Spectral (`--resolver`) for the split source in
 * spec/: Spectral's own file resolver, except for the Markdown files the source uses for long
 * descriptions, which Redocly reads as text and Spectral would parse as YAML.
 *
 * Spectral parses whatever a resolver returns as YAML, so a Markdown file is returned as a JSON
 * string (valid YAML that reads back as the text). In the YAML files, a `$ref` to a Markdown file is
 * replaced on its own line by the text as such a string: json-ref-resolver leaves some of those
 * references unresolved when the same file is reached along several paths, and the line numbers of
 * findings stay those of the file.
 */
const { readFileSync } = require("node:fs");
const { dirname, resolve } = require("node:path");
const { Resolver } = require("@stoplight/spectral-ref-resolver");

const MARKDOWN_REF = /^(\s*)\$ref:\s*['"]?([^'"\s]+\.md)['"]?\s*$/gm;

const markdownAsYaml = (path) => JSON.stringify(readFileSync(path, "utf8"));

function readFileRef(ref) {
  const path = ref.href();
  if (path.endsWith(".md")) return markdownAsYaml(path);
  return readFileSync(path, "utf8").replace(
    MARKDOWN_REF,
    (_line, indent, target) => indent + markdownAsYaml(resolve(dirname(path), target)),
  );
}

module.exports = new Resolver({ resolvers: { file: { resolve: async (ref) => readFileRef(ref) } } });
