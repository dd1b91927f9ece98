/** KurrentDB connection strings: checked by the config, no client loaded for it. */

/**
 * The connection string as the client wants it (`esdb://` is the old name of
 * `kurrentdb://` and makes the client warn on every start).
 */
export const normalizeConnectionString = (url: string): string =>
  url.replace(/^esdb(\+discover)?:\/\//i, (_m, d: string | undefined) => `kurrentdb${d ?? ''}://`);

/** The address for messages: the connection string without user name and password. */
export const describeAddress = (url: string): string => url.replace(/^([a-z+]+:\/\/)[^@/]*@/i, '$1');

export const isConnectionString = (url: string): boolean =>
  /^(esdb|kurrentdb|kurrent|kdb)(\+discover)?:\/\/[^/?]+/i.test(url);
