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

/** The first argument of `apiErrors.<code>(message, details)` and of `new Error(message)`. */
function isMessageArgument(path) {
  const call = path.parentPath;
  if (!(call.isCallExpression() || call.isNewExpression()) || path.listKey !== "arguments" || path.key !== 0) return false;
  const { callee } = call.node;
  if (callee.type === "Identifier") return callee.name === "Error";
  return callee.type === "MemberExpression" && callee.object.type === "Identifier" && callee.object.name === "apiErrors";
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
