/**
 * Orders strings by their UTF-16 code units, as PostgreSQL's C collation and `Array.sort`
 * do: ISO timestamps and ULIDs order by their characters, where a locale's collation would not.
 */
export const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
