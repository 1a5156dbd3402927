/**
 * The lexical layer of a master file (RFC 1035 5.1): text into entries, one per logical line,
 * parentheses joining physical lines, `;` comments dropped, quoted strings kept as one token.
 * Escapes stay in the token's text: what a backslash means depends on whether the token is a
 * name (an escaped dot is not a label break) or a character-string, which the reader decides.
 */

export interface ZoneToken {
  /** The token's characters with escapes as written; a quoted token without its quotes. */
  text: string;
  quoted: boolean;
  /** No whitespace between this token and the one before (`alpn="h2"` is `alpn=` then `h2`). */
  joined: boolean;
}

export interface ZoneEntry {
  /** 1-based line the entry starts on. */
  line: number;
  /** The line began with a blank: the owner is the previous entry's (RFC 1035 5.1). */
  blankOwner: boolean;
  tokens: ZoneToken[];
}

export interface ZoneLexProblem {
  line: number;
  message: string;
}

export interface ZoneLexing {
  entries: ZoneEntry[];
  problems: ZoneLexProblem[];
}

const isBlank = (char: string) => char === " " || char === "\t" || char === "\r";
// BIND's master-file specials: each ends an unquoted token.
const isSpecial = (char: string) => char === "(" || char === ")" || char === '"' || char === ";";

/** Splits a master file into entries; a malformed entry is reported and dropped, the rest still read. */
export function lexZoneFile(text: string): ZoneLexing {
  const entries: ZoneEntry[] = [];
  const problems: ZoneLexProblem[] = [];
  let line = 1;
  let position = 0;
  let current: ZoneEntry | null = null;
  let depth = 0;
  let broken: string | null = null;
  let afterBlank = true;
  let atLineStart = true;

  const finishEntry = () => {
    if (current && broken !== null) problems.push({ line: current.line, message: broken });
    else if (current && current.tokens.length > 0) entries.push(current);
    current = null;
    depth = 0;
    broken = null;
  };
  const entry = (): ZoneEntry => {
    current ??= { line, blankOwner: false, tokens: [] };
    return current;
  };

  while (position < text.length) {
    const char = text[position]!;
    if (char === "\n") {
      line += 1;
      position += 1;
      atLineStart = true;
      afterBlank = true;
      if (depth === 0) finishEntry();
      continue;
    }
    if (isBlank(char)) {
      if (atLineStart && depth === 0 && current === null) entry().blankOwner = true;
      atLineStart = false;
      afterBlank = true;
      position += 1;
      continue;
    }
    atLineStart = false;
    if (char === ";") {
      while (position < text.length && text[position] !== "\n") position += 1;
      continue;
    }
    if (char === "(") {
      entry();
      depth += 1;
      afterBlank = true;
      position += 1;
      continue;
    }
    if (char === ")") {
      if (depth === 0) broken ??= "a closing parenthesis without an opening one";
      else depth -= 1;
      entry();
      afterBlank = true;
      position += 1;
      continue;
    }
    if (char === '"') {
      let end = position + 1;
      while (end < text.length && text[end] !== '"' && text[end] !== "\n") {
        if (text[end] === "\\" && text[end + 1] !== "\n") end += 1;
        end += 1;
      }
      const target = entry();
      if (end >= text.length || text[end] !== '"') {
        // BIND reads a quoted string on one line; the entry is dropped and reading resumes at the line end.
        broken ??= "a quoted string not closed on its line";
        position = end;
        continue;
      }
      target.tokens.push({ text: text.slice(position + 1, end), quoted: true, joined: !afterBlank });
      position = end + 1;
      afterBlank = false;
      continue;
    }
    const target = entry();
    let end = position;
    while (end < text.length) {
      const next = text[end]!;
      if (next === "\\") {
        if (text[end + 1] === "\n") line += 1;
        end += 2;
        continue;
      }
      if (next === "\n" || isBlank(next) || isSpecial(next)) break;
      end += 1;
    }
    target.tokens.push({ text: text.slice(position, Math.min(end, text.length)), quoted: false, joined: !afterBlank });
    position = end;
    afterBlank = false;
  }
  if (current !== null && depth > 0) {
    const start = (current as ZoneEntry).line;
    broken ??= `an opening parenthesis not closed before the end of the file: lines ${start} to ${line} were read as this one entry`;
  }
  finishEntry();
  return { entries, problems };
}
