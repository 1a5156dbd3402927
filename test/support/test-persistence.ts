/**
 * The persistence the API tests run on: this process's memory by default. Each test starts on an
 * empty one.
 */
import { MemoryPersistence } from "../../server/store/memory-persistence.js";
import type { Persistence } from "../../server/store/persistence.js";

/** An empty persistence; `previous` is the one the last test used. */
export async function emptyTestPersistence(_previous?: Persistence): Promise<Persistence> {
  return new MemoryPersistence();
}
