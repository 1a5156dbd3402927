/** Money is kept in integer cents and written as decimal strings with two decimals. */
export type Cents = number;

export const formatCents = (cents: Cents) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;

export function parseMoney(amount: string): Cents {
  const match = /^(\d+)\.(\d{2})$/.exec(amount);
  if (!match) throw new Error(`not a money amount: ${amount}`);
  return Number(match[1]) * 100 + Number(match[2]);
}
