/** The store contract on this process's memory: the same suite the PostgreSQL store passes (postgres-store.test.ts). */
import { MemoryPersistence } from "../../../server/store/memory/memory-persistence.js";
import { describeStoreContract } from "./store-contract.js";

describeStoreContract("memory", async () => ({ persistence: new MemoryPersistence(), close: async () => {} }));
