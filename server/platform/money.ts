/** Money is kept in integer cents and written as decimal strings with two decimals. */
export type Cents = number;

export const formatCents = (cents: Cents) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
