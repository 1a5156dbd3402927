/**
 * A StrykerJS ignorer: no mutants in the text of error messages. The description makes `message`
 * human-readable prose and the kit rightly checks status codes, error codes and `details`, never
 * the wording; a mutant that empties or rewords a message is a change no conforming client can
 * rely on, and each would have survived after running every check that reached it.
 */
import { declareValuePlugin, PluginKind } from "@stryker-mutator/api/plugin";

/** Properties whose value is a sentence for people: an error's `message`, a record content's `problem`. */
const PROSE_PROPERTIES = new Set(["message", "problem"]);

const propertyName = (key) => (key.type === "Identifier" ? key.name : key.type === "StringLiteral" ? key.value : null);

/**
 * Which arguments of an `apiErrors.<constructor>(...)` make up the message (server/platform/errors.ts): the
 * first, but for the field-coded constructors, whose field and code are `details` a client reads,
 * and `notFound`, which writes both of its arguments into the message.
 */
const MESSAGE_ARGUMENTS = { badRequest: [2], invalidValue: [2], notFound: [0, 1] };

/** The server's own helpers that make an error, with which argument is its message. */
const MESSAGE_HELPERS = { cursorOfAnotherList: 0, fail: 3, refuse: 1 };

/** An argument that is message text: of `apiErrors.<constructor>(...)` (above) and of `new Error(message)`. */
function isMessageArgument(path) {
  const call = path.parentPath;
  if (!(call.isCallExpression() || call.isNewExpression()) || path.listKey !== "arguments") return false;
  const { callee } = call.node;
  if (callee.type === "Identifier") return callee.name === "Error" ? path.key === 0 : MESSAGE_HELPERS[callee.name] === path.key;
  if (callee.type !== "MemberExpression" || callee.object.type !== "Identifier" || callee.object.name !== "apiErrors") return false;
  const maker = callee.property.type === "Identifier" ? callee.property.name : "";
  return (MESSAGE_ARGUMENTS[maker] ?? [0]).includes(path.key);
}

const messageIgnorer = {
  shouldIgnore(path) {
    if (!(path.isStringLiteral() || path.isTemplateLiteral())) return undefined;
    const parent = path.parentPath;
    const isProseValue = parent?.isObjectProperty() && path.key === "value" && PROSE_PROPERTIES.has(propertyName(parent.node.key));
    return isProseValue || (parent && isMessageArgument(path))
      ? "the wording of a message for people, which no check may rely on"
      : undefined;
  },
};

export const strykerPlugins = [declareValuePlugin(PluginKind.Ignore, "message-wording", messageIgnorer)];
