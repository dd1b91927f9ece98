/**
 * The fields of a requested change that differ from what is there now: a change that
 * changes nothing records no event.
 */
export const changedFields = <T extends object>(
  changes: Partial<T>,
  current: Partial<Record<keyof T, unknown>>,
): Partial<T> =>
  Object.fromEntries(
    Object.entries(changes).filter(
      ([k, v]) => v !== undefined && JSON.stringify(v) !== JSON.stringify(current[k as keyof T]),
    ),
  ) as Partial<T>;
