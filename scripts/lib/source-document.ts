/**
 * Reads the split source, spec/partner-api.yml and the files its `$ref`s name, as the one document
 * the published documents are derived from.
 *
 * The layout is openapi-starter's: the root holds `$ref`s to one file per path (spec/paths/), per
 * webhook event (spec/webhooks/) and per component (spec/components/<kind>/), and long
 * descriptions are Markdown files. Inside those files every reference is a relative file path, so
 * Redocly lints each file where it lies. Here a reference to a file the root lists as a component
 * becomes `#/components/<kind>/<name>` again, any other file (a path item, a Markdown
 * description) is put in place, and so the document is the one the single file used to be, key for
 * key. This includes the references inside `x-variant-schemas`, an extension no bundler follows,
 * and a discriminator's mapping.
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parse } from "yaml";
import { SOURCE_PATH } from "./bundle-paths.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (value: Json | undefined): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value);

/** Markdown files are descriptions, taken as they are; every other file is YAML. */
function readPart(file: string): Json {
  const text = readFileSync(file, "utf8");
  return file.endsWith(".md") ? text : (parse(text) as Json);
}

/** The component each component file defines, by absolute file path. */
function componentFiles(root: JsonObject, rootDir: string): Map<string, string> {
  const found = new Map<string, string>();
  const components = root.components;
  if (!isObject(components)) return found;
  for (const [kind, group] of Object.entries(components)) {
    if (!isObject(group)) continue;
    for (const [name, entry] of Object.entries(group)) {
      if (isObject(entry) && typeof entry.$ref === "string") found.set(resolve(rootDir, entry.$ref), `#/components/${kind}/${name}`);
    }
  }
  return found;
}

export function readSourceDocument(rootPath: string = SOURCE_PATH): JsonObject {
  const root = readPart(rootPath);
  if (!isObject(root)) throw new Error(`${rootPath} is not an OpenAPI document`);
  const components = componentFiles(root, dirname(resolve(rootPath)));

  const inline = (file: string, trail: string[]): Json => {
    if (trail.includes(file)) throw new Error(`circular $ref: ${[...trail, file].join(" -> ")}`);
    return walk(readPart(file), file, [...trail, file]);
  };

  const walk = (node: Json, file: string, trail: string[]): Json => {
    if (Array.isArray(node)) return node.map((child) => walk(child, file, trail));
    if (!isObject(node)) return node;
    const ref = node.$ref;
    if (typeof ref === "string") {
      if (ref.includes("#")) throw new Error(`${file}: $ref "${ref}": refer to a file of spec/, not into one`);
      const target = resolve(dirname(file), ref);
      const component = components.get(target);
      if (component !== undefined) return { ...node, $ref: component };
      return inline(target, trail);
    }
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => [
        key,
        key === "discriminator" && isObject(value) ? discriminator(value, file) : walk(value, file, trail),
      ]),
    );
  };

  /** A discriminator's mapping names schemas by reference too, as plain strings. */
  const discriminator = (node: JsonObject, file: string): JsonObject => {
    if (!isObject(node.mapping)) return node;
    const mapping = Object.entries(node.mapping).map(([value, ref]) => {
      const component = typeof ref === "string" ? components.get(resolve(dirname(file), ref)) : undefined;
      if (component === undefined) throw new Error(`${file}: discriminator mapping "${value}": name a component's file`);
      return [value, component];
    });
    return { ...node, mapping: Object.fromEntries(mapping) };
  };

  const rootFile = resolve(rootPath);
  const document: JsonObject = {};
  for (const [key, value] of Object.entries(root)) {
    document[key] = key === "components" && isObject(value) ? defineComponents(value) : walk(value, rootFile, [rootFile]);
  }
  return document;

  /** The root's component entries are the definitions: their files are put in place. */
  function defineComponents(group: JsonObject): JsonObject {
    return Object.fromEntries(
      Object.entries(group).map(([kind, entries]) => [
        kind,
        isObject(entries)
          ? Object.fromEntries(
              Object.entries(entries).map(([name, entry]) => [
                name,
                isObject(entry) && typeof entry.$ref === "string"
                  ? inline(join(dirname(rootFile), entry.$ref), [rootFile])
                  : walk(entry, rootFile, [rootFile]),
              ]),
            )
          : entries,
      ]),
    );
  }
}
