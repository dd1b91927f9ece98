import { lookup } from 'node:dns/promises';
import net from 'node:net';

/**
 * Where the service may send requests (webhooks, supplier fulfilment): public HTTPS hosts
 * only, unless SVC_ALLOW_PRIVATE_TARGETS is on (tests, local development). Host names are
 * resolved and every address they resolve to is checked, at registration and again before
 * each call, so a name re-pointed to a private address later (DNS rebinding) is refused.
 */
const blocked = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8], // "this" network, unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  blocked.addSubnet(address, prefix, 'ipv4');
for (const [address, prefix] of [
  ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible ::a.b.c.d
  ['100::', 64], // discard-only
  ['2001::', 32], // Teredo embeds IPv4
  ['2002::', 16], // 6to4 embeds IPv4
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
  ['64:ff9b::', 96], // NAT64 embeds IPv4
  ['2001:db8::', 32], // documentation
] as const)
  blocked.addSubnet(address, prefix, 'ipv6');

/** IPv4-mapped and -compatible IPv6 forms (::ffff:10.0.0.1) are judged as the IPv4 they carry. */
const embeddedIpv4 = (address: string): string | undefined => {
  const m = /^::(?:ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (m) return m[1];
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hex) {
    const hi = parseInt(hex[1]!, 16);
    const lo = parseInt(hex[2]!, 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return undefined;
};

export const isPrivateAddress = (address: string): boolean => {
  const family = net.isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIpv4(address.toLowerCase());
    return v4 ? blocked.check(v4, 'ipv4') : blocked.check(address, 'ipv6');
  }
  return true; // not an address at all: refuse
};

export type TargetCheck = { ok: true; url: URL } | { ok: false; reason: string };

export interface TargetPolicy {
  allowPrivate: boolean;
  resolve?: (host: string) => Promise<string[]>;
}

const defaultResolve = async (host: string) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** Syntax only: a URL the service could ever call. */
export const checkTargetSyntax = (raw: string, policy: TargetPolicy): TargetCheck => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'not a valid URL' };
  }
  if (url.protocol !== 'https:' && !(policy.allowPrivate && url.protocol === 'http:')) return { ok: false, reason: 'must use https' };
  if (url.username || url.password) return { ok: false, reason: 'must not carry credentials' };
  if (url.hash) return { ok: false, reason: 'must not carry a fragment' };
  return { ok: true, url };
};

/** Syntax, then every address the host resolves to. */
export const checkTarget = async (raw: string, policy: TargetPolicy): Promise<TargetCheck> => {
  const syntax = checkTargetSyntax(raw, policy);
  if (!syntax.ok || policy.allowPrivate) return syntax;
  const host = syntax.url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = net.isIP(host) ? [host] : await (policy.resolve ?? defaultResolve)(host);
  } catch {
    return { ok: false, reason: `host ${host} does not resolve` };
  }
  if (addresses.length === 0) return { ok: false, reason: `host ${host} does not resolve` };
  const bad = addresses.find(isPrivateAddress);
  if (bad) return { ok: false, reason: `host ${host} resolves to a private or reserved address (${bad})` };
  return syntax;
};
