/**
 * express-openapi-validator 5.6 validates requests with Ajv's `useDefaults: true`, hard-coded (its
 * options offer no switch), so validating a request writes each schema's `default` into it. Ajv
 * fills an object's defaults before it checks the object's `minProperties`, which then counts them:
 * `POST .../dns/changes` with `{}` became `{"dry_run": false}`, one property, and applied an empty
 * change set although the schema asks for at least one. A request is now validated as given, and
 * a handler applies an absent field's default itself, as every handler already did (`?? default`).
 *
 * Like the other patches here it replaces a member the validator reads at call time (the request
 * options of its `AjvOptions`), once per process, before `createApp` builds the middleware.
 * test/server/api/validator/min-properties.test.ts checks every `minProperties` of every request body.
 */
import ajvOptionsModule from "express-openapi-validator/dist/framework/ajv/options.js";

interface AjvOptionsInternals {
  AjvOptions: { prototype: object };
}

const APPLIED = Symbol.for("partner-api.requestValidatedAsGiven");

export function validateRequestsAsGiven(): void {
  const { prototype } = (ajvOptionsModule as unknown as AjvOptionsInternals).AjvOptions;
  const descriptor = Object.getOwnPropertyDescriptor(prototype, "request");
  if (typeof descriptor?.get !== "function") throw new Error("express-openapi-validator: AjvOptions has no `request` getter to patch");
  if ((descriptor.get as { [APPLIED]?: true })[APPLIED]) return;
  const original = descriptor.get;
  const asGiven = Object.assign(
    function (this: object) {
      return { ...original.call(this), useDefaults: false };
    },
    { [APPLIED]: true as const },
  );
  Object.defineProperty(prototype, "request", { ...descriptor, get: asGiven });
}
