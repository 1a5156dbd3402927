/**
 * Keys of the partners file on a running server: a key revoked or created with `npm run keys`
 * counts from the next request, without a restart; what the server says about its keys at start-up.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { scaled } from "../../../../scripts/lib/deadlines.js";
import { createApp } from "../../../../server/assembly/app.js";
import { hashApiKey } from "../../../../server/partners/keys/api-keys.js";
import { announcedAddress, spawnServer, type ServerProcess } from "../../../../scripts/lib/server-process.js";
import { captureLogger } from "../../../support/capture-logger.js";
import { keysCli } from "../../../support/keys-cli.js";

/** `npm run keys` keeps keys in the partners file unless DATABASE_URL or PARTNER_API_DATA_DIR is set (empty is unset). */
const PARTNERS_FILE_MODE = { ...process.env, DATABASE_URL: "", PARTNER_API_DATA_DIR: "" };

const directories: string[] = [];
afterEach(() => directories.splice(0).forEach((directory) => rmSync(directory, { recursive: true, force: true })));

function partnersFilePath(): string {
  const directory = mkdtempSync(join(tmpdir(), "partner-keys-"));
  directories.push(directory);
  return join(directory, "partners.json");
}

/** `npm run keys -- ...` on the partners file `file`; returns what it printed. */
const keysOn = (file: string, ...args: string[]) => keysCli([...args, "--config", file], PARTNERS_FILE_MODE);
const createKey = async (file: string, partner: string, environment = "sandbox") =>
  /sk_(?:sandbox|live)_[A-Za-z0-9]{32}/.exec(await keysOn(file, "create", "--partner", partner, "--env", environment))![0];

/** A partners file written by hand: one partner with these sandbox keys. */
function writePartners(file: string, keys: string[]): void {
  const partners = [{ id: "acme", name: "Acme", environment: "sandbox", key_hashes: keys.map((key) => hashApiKey(key).toString("hex")) }];
  writeFileSync(file, JSON.stringify({ partners }));
}

const KEY_1 = "sk_sandbox_keyOne0000000000000000000000000";
const KEY_2 = "sk_sandbox_keyTwo0000000000000000000000000";

function appFollowing(file: string) {
  const logs = captureLogger("info");
  const { keys } = createApp({
    environment: "sandbox",
    embedBaseUrl: "http://embed.test",
    partners: [],
    partnersFile: file,
    logger: logs.logger,
  });
  return { keys, logs };
}

describe("a running server's keys from the partners file", () => {
  let server: ServerProcess | undefined;
  afterEach(async () => {
    await server?.kill();
    server = undefined;
  });

  it("refuse a key revoked with npm run keys from the very next request, and accept one created meanwhile, without a restart", async () => {
    const file = partnersFilePath();
    const first = await createKey(file, "Acme Hosting");
    server = spawnServer(["--import", "tsx", "server/main.ts"], {
      LOG_LEVEL: "info",
      PARTNER_API_CONFIG: file,
    });
    const baseUrl = await announcedAddress(server);
    expect(baseUrl, server.output()).toBeDefined();
    const status = async (key: string) => (await fetch(`${baseUrl}/api/v1/health`, { headers: { Authorization: `Bearer ${key}` } })).status;
    expect(await status(first)).toBe(200);

    const second = await createKey(file, "Acme Hosting");
    expect(await status(second)).toBe(200);
    await keysOn(file, "revoke", "--key", first);
    expect(await status(first)).toBe(401);
    expect(await status(second)).toBe(200);
    const other = await createKey(file, "Other Partner");
    expect(await status(other)).toBe(200);

    // A request's line is written once its answer is done: wait for the last one.
    const logLines = () =>
      server!
        .output()
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    await vi.waitFor(() => expect(logLines().filter((line) => line.msg === "request")).toHaveLength(5), { timeout: scaled(2_000) });
    const lines = logLines();
    expect(lines.filter((line) => line.msg === "request").map((line) => [line.status, line.partner])).toEqual([
      [200, "acme_hosting"],
      [200, "acme_hosting"],
      [401, null],
      [200, "acme_hosting"],
      [200, "other_partner"],
    ]);
    expect(lines.filter((line) => String(line.msg).startsWith("partners file changed")).at(-1)).toMatchObject({
      partners: [
        { id: "acme_hosting", keys: { sandbox: 1, production: 0 } },
        { id: "other_partner", keys: { sandbox: 1, production: 0 } },
      ],
    });
  });
});

describe("the partners file a server follows", () => {
  it("is written whole by npm run keys: a new file renamed over the old one, nothing left beside it", async () => {
    const file = partnersFilePath();
    await createKey(file, "Acme");
    const before = statSync(file);
    await createKey(file, "Acme");
    expect(statSync(file).ino).not.toBe(before.ino);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(file, ".."))).toEqual(["partners.json"]);
  });

  it("sees a key changed in place, at the same size, with the old modification time put back", async () => {
    const file = partnersFilePath();
    writePartners(file, [KEY_1]);
    const { keys } = appFollowing(file);
    expect(await keys.partnerFor(KEY_1)).toEqual({ id: "acme", name: "Acme" });
    const { atime, mtime } = statSync(file);
    writePartners(file, [KEY_2]);
    utimesSync(file, atime, mtime);
    expect(await keys.partnerFor(KEY_1)).toBeNull();
    expect(await keys.partnerFor(KEY_2)).toEqual({ id: "acme", name: "Acme" });
  });

  it("keeps the keys read last while the file cannot be parsed, says so in one error line however many requests come, and takes the file again once fixed", async () => {
    const file = partnersFilePath();
    writePartners(file, [KEY_1]);
    const { keys, logs } = appFollowing(file);
    writeFileSync(file, '{ "partners": [ { "id": "acme", ');
    for (let i = 0; i < 5; i++) expect(await keys.partnerFor(KEY_1)).toEqual({ id: "acme", name: "Acme" });
    expect(await keys.partnerFor(KEY_2)).toBeNull();
    const errors = logs.lines.filter((line) => line.level === 50);
    expect(errors).toEqual([
      expect.objectContaining({
        reason: expect.stringContaining("is not valid JSON"),
        msg: expect.stringContaining("keys read before stay in force"),
      }),
    ]);

    writePartners(file, [KEY_2]);
    expect(await keys.partnerFor(KEY_2)).toEqual({ id: "acme", name: "Acme" });
    expect(await keys.partnerFor(KEY_1)).toBeNull();
  });

  it("keeps the keys read last when a hand edit breaks an entry's shape, naming the entry", async () => {
    const file = partnersFilePath();
    writePartners(file, [KEY_1]);
    const { keys, logs } = appFollowing(file);
    writeFileSync(file, JSON.stringify({ partners: [{ id: "acme", name: "Acme", environment: "sandbox", key_hashes: "not a list" }] }));
    expect(await keys.partnerFor(KEY_1)).toEqual({ id: "acme", name: "Acme" });
    expect(logs.lines.at(-1)).toMatchObject({
      level: 50,
      reason: expect.stringContaining("partners[0].key_hashes must be a list of SHA-256 hashes"),
    });
  });

  it("holds no key once it is removed, as at start-up, and the keys of a file written later", async () => {
    const file = partnersFilePath();
    writePartners(file, [KEY_1]);
    const { keys } = appFollowing(file);
    unlinkSync(file);
    expect(await keys.partnerFor(KEY_1)).toBeNull();
    writePartners(file, [KEY_2]);
    expect(await keys.partnerFor(KEY_2)).toEqual({ id: "acme", name: "Acme" });
  });

  it("gives a deployment only the keys of its environment", async () => {
    const file = partnersFilePath();
    const live = await createKey(file, "Acme", "production");
    const sandbox = await createKey(file, "Acme", "sandbox");
    const { keys } = appFollowing(file);
    expect(await keys.partnerFor(live)).toBeNull();
    expect(await keys.partnerFor(sandbox)).toEqual({ id: "acme", name: "Acme" });
    expect(keys.loaded()).toEqual([
      { partner: { id: "acme", name: "Acme" }, keys: { sandbox: 1, production: 1 }, source: "partners file" },
    ]);
    expect(readFileSync(file, "utf8")).not.toContain(sandbox);
  });
});
