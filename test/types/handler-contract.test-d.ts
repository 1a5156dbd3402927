// Type-level tests, checked by `npm run typecheck`: each @ts-expect-error line must NOT compile.
import type { Handler, OperationHandlers } from "../../generated/handlers.js";
import type { RequestContext } from "../../server/application/context.js";
import { handlers } from "../../server/api/handlers/index.js";

export const documented: Handler<"getHealth", RequestContext> = () => ({
  status: 200,
  body: { status: "ok", time: "2026-11-22T10:00:00Z" },
});

// biome-ignore format: @ts-expect-error must stand on the line before the error it expects
// @ts-expect-error 418 is not a status the spec documents for getHealth
export const undocumentedStatus: Handler<"getHealth", RequestContext> = () => ({ status: 418, body: { status: "ok", time: "2026-11-22T10:00:00Z" } });

// @ts-expect-error the body lacks the required `time`
export const missingField: Handler<"getHealth", RequestContext> = () => ({ status: 200, body: { status: "ok" } });

// @ts-expect-error a 204 operation has no body to return with 200
export const wrongSuccess: Handler<"deleteUser", RequestContext> = () => ({ status: 200, body: {} });

// biome-ignore format: @ts-expect-error must stand on the line before the error it expects
// @ts-expect-error Variant R's `value` is not a field of a Variant D record
export const variantMixUp: Handler<"createDomainDnsRecord", RequestContext> = () => ({ status: 201, body: { id: "rec_1", type: "A", name: "@", value: "203.0.113.1", ttl: 300, priority: null, created_at: "", updated_at: "" } });

const { getHealth: _omitted, ...allButOne } = handlers;
// @ts-expect-error a handler map missing an operation does not satisfy the contract
export const incomplete: OperationHandlers<RequestContext> = allButOne;
