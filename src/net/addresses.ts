import net from 'node:net';

/**
 * IPv6 addresses in one canonical spelling, and the IPv4 addresses the IPv6 forms that
 * embed one carry: a filter that only knew `::ffff:a.b.c.d` let `::ffff:0:127.0.0.1`
 * through. Judging the canonical form and every embedded IPv4 closes all spellings at once.
 */

/** The eight 16-bit groups of an IPv6 address (zone id dropped), or undefined if it is none. */
export const ipv6Groups = (address: string): number[] | undefined => {
  let a = address.toLowerCase().replace(/%.*$/, '');
  if (!net.isIPv6(a)) return undefined;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(a);
  if (dotted) {
    const [b1, b2, b3, b4] = dotted.slice(1).map(Number) as [number, number, number, number];
    a = `${a.slice(0, dotted.index)}${((b1 << 8) | b2).toString(16)}:${((b3 << 8) | b4).toString(16)}`;
  }
  const [head, tail] = a.includes('::') ? (a.split('::') as [string, string]) : [a, undefined];
  const front = head ? head.split(':') : [];
  const back = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array<string>(8 - front.length - back.length).fill('0');
  const groups = [...front, ...fill, ...back].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : undefined;
};

/** Canonical full form (`0:0:0:0:0:ffff:7f00:1`), or undefined if not an IPv6 address. */
export const normaliseIpv6 = (address: string): string | undefined =>
  ipv6Groups(address)
    ?.map((g) => g.toString(16))
    .join(':');

const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
const zero = (groups: number[], from: number, to: number) => groups.slice(from, to).every((g) => g === 0);

/**
 * Every IPv4 address an IPv6 address may stand for: mapped `::ffff:a.b.c.d`, translated
 * `::ffff:0:a.b.c.d`, compatible `::a.b.c.d`, 6to4 `2002:AABB:CCDD::/48`, Teredo
 * `2001:0::/32` (server, and the client address stored inverted), NAT64 `64:ff9b::/96` and
 * the local-use `64:ff9b:1::/48` (the IPv4 at the /96 and at the /48 position of RFC 6052).
 */
export const embeddedIpv4s = (address: string): string[] => {
  const g = ipv6Groups(address);
  if (!g) return [];
  const found: string[] = [];
  if (zero(g, 0, 5) && g[5] === 0xffff) found.push(v4(g[6]!, g[7]!)); // mapped
  if (zero(g, 0, 4) && g[4] === 0xffff && g[5] === 0) found.push(v4(g[6]!, g[7]!)); // translated
  if (zero(g, 0, 6) && !(g[6] === 0 && g[7]! <= 1)) found.push(v4(g[6]!, g[7]!)); // compatible (not :: or ::1)
  if (g[0] === 0x2002) found.push(v4(g[1]!, g[2]!)); // 6to4
  if (g[0] === 0x2001 && g[1] === 0) found.push(v4(g[2]!, g[3]!), v4(g[6]! ^ 0xffff, g[7]! ^ 0xffff)); // Teredo
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(g, 2, 6)) found.push(v4(g[6]!, g[7]!)); // NAT64 well-known
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) {
    found.push(v4(g[6]!, g[7]!)); // a /96 inside the local-use prefix
    found.push(v4(g[3]!, ((g[4]! & 0xff) << 8) | (g[5]! >> 8))); // the /48 position, around the u octet
  }
  return found;
};
