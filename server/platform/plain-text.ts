/**
 * What the service takes as text, in the API's JSON bodies and the embedded interface's forms alike:
 * well-formed Unicode without control characters. Only a file of lines (a zone file to import, read
 * and never stored as it is) holds tab, line feed and carriage return; elsewhere they are refused
 * with the rest: a control character stored once would reach DNS zone files, webhook receivers and
 * HTML pages that each read it differently.
 */

/** C0 (U+0000 to U+001F), DEL (U+007F) and C1 (U+0080 to U+009F): Unicode's general category Cc. */
const CONTROL_CHARACTER = /\p{Cc}/u;
const EVERY_CONTROL_CHARACTER = /\p{Cc}/gu;

/** With the u flag a pair of surrogates is one code point, so only a lone one matches. */
const LONE_SURROGATE = /\p{Cs}/u;

export type TextProblem = { code: "control_character"; character: string } | { code: "invalid_unicode" };

/** Cc but tab, line feed and carriage return: what a file of lines (a zone file) may not hold. */
const CONTROL_CHARACTER_BUT_LINES = /[^\P{Cc}\t\n\r]/u;

/**
 * The first reason the text is not plain text, or null. `lines`: the text is a file of lines (the
 * one such field is a zone import's `zone_file`), whose tabs and line ends are its own.
 */
export function textProblem(text: string, lines = false): TextProblem | null {
  const control = (lines ? CONTROL_CHARACTER_BUT_LINES : CONTROL_CHARACTER).exec(text);
  if (control) return { code: "control_character", character: control[0] };
  if (LONE_SURROGATE.test(text)) return { code: "invalid_unicode" };
  return null;
}

/** The text with every control character replaced, for output that cannot carry them (HTML). */
export const replaceControlCharacters = (text: string, replacement: string) => text.replace(EVERY_CONTROL_CHARACTER, replacement);

/** `U+001B`: how a character that cannot be shown is named in messages. */
export const codePointName = (character: string) => `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;

/** The message for a field whose text has the problem; the field is named as the caller names fields. */
export function textProblemMessage(field: string, problem: TextProblem): string {
  return problem.code === "control_character"
    ? `${field} contains the control character ${codePointName(problem.character)}; no field accepts control characters`
    : `${field} is not well-formed Unicode (a lone surrogate)`;
}

/** The text with what cannot be shown as it is (controls, lone surrogates) written as JSON escapes, for naming a field. */
export const escapedForDisplay = (text: string) =>
  text.replace(/[\p{Cc}\p{Cs}]/gu, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`);
