/**
 * Form input of the embedded interface and the errors shown with it. Values are checked by the same
 * services the API uses; what is checked here is only what the API checks before them (a field's
 * type, plain text: see server/platform/plain-text.ts), and an ApiError's `details.field` puts its message
 * next to that field.
 *
 * Every field of these forms takes one value: a form built by these pages sends each name once, so a
 * repeated name is a tampered or broken request, refused (400) rather than guessed at. All reading
 * goes through `textOf`, so no form can forget it.
 */
import { assertIfMatch } from "../../platform/entity-tags.js";
import { apiErrors } from "../../platform/errors.js";

import type { FormErrors } from "../../web/controls.js";
import type { FormBody } from "../../web/form-fields.js";
import { textOf } from "../../web/form-fields.js";

export { NO_ERRORS, type FormErrors } from "../../web/controls.js";
export { choiceOf, integerOf, requireUtf8Form, textOf, valuesOf, type FormBody } from "../../web/form-fields.js";
export type { FormState } from "../views/form-state.js";

/**
 * Refuses the change (412) unless what it changes is still as the page showed it: the form carries
 * the entity tag of what it showed (`etag`), checked in the change's transaction, so nobody's
 * change is overwritten unseen.
 */
export function assertUnchangedSinceShown(body: FormBody, row: object, what: string): void {
  const shown = textOf(body, "etag");
  if (shown === "")
    throw apiErrors.badRequest("etag", "missing_required_field", `The form lacks the version of the ${what} it showed; reload the page`);
  assertIfMatch(shown, row, what);
}
