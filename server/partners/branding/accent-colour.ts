/**
 * A partner's accent colour, within the limits the interface keeps (WCAG 2.1 AA, 1.4.3): it is the
 * background of primary buttons under white text, and the colour of links on the page's white and
 * light grey, so it must reach 4.5:1 against all three. culori parses any CSS colour and measures
 * contrast as WCAG defines it.
 */
import { formatHex, parse, wcagContrast } from "culori";

/** Text on the accent, and the two backgrounds links sit on (--accent-ink, --surface, --canvas of embed.css). */
const AGAINST = ["#ffffff", "#f4f6f8"] as const;
export const MIN_CONTRAST = 4.5;

export type AccentReading = { colour: string } | { problem: "unreadable" } | { problem: "low_contrast"; contrast: number };

/** The colour as `#rrggbb`, or why it cannot be the accent. */
export function readAccentColour(input: string): AccentReading {
  const parsed = parse(input.trim());
  if (!parsed || ("alpha" in parsed && parsed.alpha !== undefined && parsed.alpha < 1)) return { problem: "unreadable" };
  const colour = formatHex(parsed);
  const contrast = Math.min(...AGAINST.map((background) => wcagContrast(colour, background)));
  // Rounded down to a tenth, as people read it: 4.46 is shown and judged as 4.4, never as 4.5.
  return contrast >= MIN_CONTRAST ? { colour } : { problem: "low_contrast", contrast: Math.floor(contrast * 10) / 10 };
}

/** The stylesheet that applies an accent: served by the embed host, as pages allow styles from files only. */
export const accentStylesheet = (colour: string) => `:root { --accent: ${colour}; }\n`;
