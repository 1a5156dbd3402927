/** Everything a persistence holds, as one text: for tests that a value is never stored, whatever the store. */
import type { Persistence } from "../../server/store/persistence.js";
import { PostgresPersistence } from "../../server/store/postgres/index.js";

export async function everythingStored(persistence: Persistence, options: { exceptEventHistory?: boolean } = {}): Promise<string> {
  if (persistence instanceof PostgresPersistence) {
    const tables = (
      await persistence.sql.query<{ name: string }>(
        "SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename",
      )
    ).filter(({ name }) => !(options.exceptEventHistory && name === "events"));
    const dumps = await Promise.all(
      tables.map(async ({ name }) => JSON.stringify(await persistence.sql.query(`SELECT row_to_json(t) AS row FROM "${name}" t`))),
    );
    return dumps.join("\n");
  }
  return JSON.stringify(persistence, (key, value: unknown) =>
    options.exceptEventHistory && key === "events"
      ? undefined
      : value instanceof Map
        ? [...value.entries()]
        : value instanceof Set
          ? [...value]
          : value,
  );
}
