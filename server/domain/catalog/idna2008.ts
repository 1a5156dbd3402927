/**
 * IDNA2008 validity of a U-label (RFC 5892). UTS #46 (tr46) maps and checks a name first, but its
 * table is wider than IDNA2008: it keeps symbols such as emoji. What it lets through is checked here
 * by the derivation of RFC 5892 section 3, read from Unicode's own properties through JavaScript's
 * property escapes; only the RFC's own exceptions and its three named blocks are written out.
 */

export interface Idna2008Refusal {
  character: string;
  codePoint: number;
  /** `disallowed` anywhere in a label; `out_of_context` where its rule (RFC 5892 appendix A) fails. */
  kind: "disallowed" | "out_of_context";
}

type Derived = "PVALID" | "CONTEXTJ" | "CONTEXTO" | "DISALLOWED" | "UNASSIGNED";
type ContextRule = (label: readonly string[], index: number) => boolean;

const inRange = (first: number, last: number) => (character: string) => {
  const codePoint = character.codePointAt(0)!;
  return codePoint >= first && codePoint <= last;
};
const isArabicIndicDigit = inRange(0x0660, 0x0669);
const isExtendedArabicIndicDigit = inRange(0x06f0, 0x06f9);
const GREEK = /^\p{Script=Greek}$/u;
const HEBREW = /^\p{Script=Hebrew}$/u;
const JAPANESE = /^[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]$/u;

/** RFC 5892 2.6, Exceptions (F): PVALID whatever their properties say (ß, ς, and four others). */
const PVALID_EXCEPTIONS = new Set([0x00df, 0x03c2, 0x06fd, 0x06fe, 0x0f0b, 0x3007]);
/** RFC 5892 2.6: DISALLOWED although they are letters or marks (Arabic tatweel, kana repeat marks...). */
const DISALLOWED_EXCEPTIONS = new Set([0x0640, 0x07fa, 0x302e, 0x302f, 0x3031, 0x3032, 0x3033, 0x3034, 0x3035, 0x303b]);

/** RFC 5892 2.6, CONTEXTO exceptions, each with its rule of appendix A. */
const CONTEXT_RULES = new Map<number, ContextRule>([
  // A.3 MIDDLE DOT: only between two l, as in Catalan "col·legi".
  [0x00b7, (label, i) => label[i - 1] === "l" && label[i + 1] === "l"],
  // A.4 GREEK LOWER NUMERAL SIGN (KERAIA): followed by a Greek character.
  [0x0375, (label, i) => GREEK.test(label[i + 1] ?? "")],
  // A.5 HEBREW PUNCTUATION GERESH and A.6 GERSHAYIM: preceded by a Hebrew character.
  [0x05f3, (label, i) => HEBREW.test(label[i - 1] ?? "")],
  [0x05f4, (label, i) => HEBREW.test(label[i - 1] ?? "")],
  // A.7 KATAKANA MIDDLE DOT: in a label with Hiragana, Katakana or Han.
  [0x30fb, (label) => label.some((character) => JAPANESE.test(character))],
]);
// A.8 and A.9: Arabic-Indic and Extended Arabic-Indic digits do not mix in one label.
for (let codePoint = 0x0660; codePoint <= 0x0669; codePoint++)
  CONTEXT_RULES.set(codePoint, (label) => !label.some(isExtendedArabicIndicDigit));
for (let codePoint = 0x06f0; codePoint <= 0x06f9; codePoint++) CONTEXT_RULES.set(codePoint, (label) => !label.some(isArabicIndicDigit));

const UNASSIGNED = /^\p{Cn}$/u;
const LDH = /^[a-z0-9-]$/;
const JOIN_CONTROL = /^\p{Join_Control}$/u;
/** RFC 5892 2.3, IgnorableProperties (C). */
const IGNORABLE_PROPERTIES = /^[\p{Default_Ignorable_Code_Point}\p{White_Space}\p{Noncharacter_Code_Point}]$/u;
const NONCHARACTER = /^\p{Noncharacter_Code_Point}$/u;
/**
 * RFC 5892 2.4, IgnorableBlocks (D): Combining Diacritical Marks for Symbols, Musical Symbols and
 * Ancient Greek Musical Notation. JavaScript has no Block property, so the blocks' bounds are written here.
 */
const IGNORABLE_BLOCKS = [inRange(0x20d0, 0x20ff), inRange(0x1d100, 0x1d1ff), inRange(0x1d200, 0x1d24f)];
const HANGUL = /^\p{Script=Hangul}$/u;
const LETTER = /^\p{L}$/u;
/** RFC 5892 2.1, LetterDigits (A): the general categories a label is made of. */
const LETTER_DIGITS = /^[\p{Ll}\p{Lu}\p{Lo}\p{Nd}\p{Lm}\p{Mn}\p{Mc}]$/u;

/**
 * RFC 5892 2.5, OldHangulJamo (I): conjoining jamo (Hangul_Syllable_Type L, V, T) are not letters
 * of a label; only precomposed syllables are. JavaScript has no Hangul_Syllable_Type, but the
 * syllables are the Hangul letters that decompose (NFD) into jamo.
 */
const isHangulJamo = (character: string) => HANGUL.test(character) && LETTER.test(character) && character.normalize("NFD") === character;

/**
 * The derived property of RFC 5892 section 3, rule by rule in its order. Unstable (B) is not
 * derived here: it is UTS #46's mapping (NFKC_Casefold), so a label tr46 accepted has none.
 */
function derivedProperty(character: string): Derived {
  const codePoint = character.codePointAt(0)!;
  if (PVALID_EXCEPTIONS.has(codePoint)) return "PVALID";
  if (CONTEXT_RULES.has(codePoint)) return "CONTEXTO";
  if (DISALLOWED_EXCEPTIONS.has(codePoint)) return "DISALLOWED";
  // BackwardCompatible (G) is empty.
  if (UNASSIGNED.test(character) && !NONCHARACTER.test(character)) return "UNASSIGNED";
  if (LDH.test(character)) return "PVALID";
  if (JOIN_CONTROL.test(character)) return "CONTEXTJ";
  if (IGNORABLE_PROPERTIES.test(character)) return "DISALLOWED";
  if (IGNORABLE_BLOCKS.some((inBlock) => inBlock(character))) return "DISALLOWED";
  if (isHangulJamo(character)) return "DISALLOWED";
  return LETTER_DIGITS.test(character) ? "PVALID" : "DISALLOWED";
}

/**
 * The first code point of a U-label that IDNA2008 does not allow where it stands, or null. For a
 * label UTS #46 has accepted: the joiners (CONTEXTJ), hyphens and bidi rule are checked there.
 */
export function idna2008Refusal(label: string): Idna2008Refusal | null {
  const characters = [...label];
  for (const [index, character] of characters.entries()) {
    const property = derivedProperty(character);
    const codePoint = character.codePointAt(0)!;
    if (property === "DISALLOWED" || property === "UNASSIGNED") return { character, codePoint, kind: "disallowed" };
    if (property === "CONTEXTO" && !CONTEXT_RULES.get(codePoint)!(characters, index))
      return { character, codePoint, kind: "out_of_context" };
  }
  return null;
}
