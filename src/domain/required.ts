/**
 * A value the code relies on being there (a stream a command just wrote to, an item its own
 * order holds): returned when present, else an error that names what was missing, so a broken
 * assumption fails where it is made and says which one rather than as a TypeError further on.
 */
export const required = <T>(value: T | null | undefined, what: string): T => {
  if (value === undefined || value === null) throw new Error(`missing ${what}`);
  return value;
};

/** The value stored under `key`, or an error naming `what` (see `required`). */
export const lookup = <K, V>(map: ReadonlyMap<K, V>, key: K, what: string): V => required(map.get(key), what);
