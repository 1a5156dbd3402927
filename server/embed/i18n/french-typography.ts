/**
 * French sets high punctuation apart with a space that never breaks (a line must not start with
 * ":" or "»"): a no-break space before ":" and inside « », a narrow one before ";", "?" and "!".
 * Sentences are written with ordinary spaces, which read and review easily, and typeset by the
 * `french` template tag; only the sentence's own text is touched, never the values put into it.
 */
const NO_BREAK_SPACE = "\u00a0";
const NARROW_NO_BREAK_SPACE = "\u202f";

const typeset = (text: string) =>
  text
    .replace(/ :/g, `${NO_BREAK_SPACE}:`)
    .replace(/ ([;?!])/g, `${NARROW_NO_BREAK_SPACE}$1`)
    .replace(/« /g, `«${NO_BREAK_SPACE}`)
    .replace(/ »/g, `${NO_BREAK_SPACE}»`);

/** A French sentence, typeset: french`Erreur :` reads "Erreur\u00a0:". */
export function french(text: TemplateStringsArray, ...values: ReadonlyArray<string | number>): string {
  return values.reduce<string>((sentence, value, index) => `${sentence}${value}${typeset(text[index + 1]!)}`, typeset(text[0]!));
}
