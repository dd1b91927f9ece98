/** The control characters a supplier's URL is refused for, by name. */
export const controlCharacters = [
  ['CR', '\r'],
  ['LF', '\n'],
  ['CRLF', '\r\n'],
  ['TAB', '\t'],
  ['NUL', '\0'],
  ['DEL', '\x7f'],
  ['C1 NEL', '\u0085'],
  ['C1 CSI', '\u009b'],
] as const;

/**
 * `url` (https://<host>/<path>) with each control character put in the middle of its host,
 * in the middle of its path and at its end: labelled, so a failing case names itself.
 */
export const withControlCharacters = (url: string): [label: string, url: string][] => {
  const { host, pathname } = new URL(url);
  const half = (s: string) => Math.floor(s.length / 2);
  const hostAt = url.indexOf(host) + half(host);
  const pathAt = url.indexOf(pathname, url.indexOf(host) + host.length) + half(pathname);
  return controlCharacters.flatMap(([name, c]) => [
    [`${name} in the host`, url.slice(0, hostAt) + c + url.slice(hostAt)],
    [`${name} in the path`, url.slice(0, pathAt) + c + url.slice(pathAt)],
    [`${name} at the end`, url + c],
  ]);
};

/**
 * What the API answers for a case of `withControlCharacters`: a NUL is refused before any
 * route's own checks (no string holding one can be stored), every other by the URL check.
 */
export const apiRefusalOf = (label: string) =>
  label.startsWith('NUL ') ? 'must not contain a NUL character' : 'must not contain control characters';
