import { lookup } from 'node:dns/promises';
import net from 'node:net';
import { embeddedIpv4s, normaliseIpv6 } from './addresses.js';

/**
 * Where the service may send requests (webhooks, supplier fulfilment): public HTTPS hosts
 * only. SVC_ALLOW_PRIVATE_TARGETS (tests, local development) also allows plain http,
 * loopback and private ranges, but never link-local ones (169.254.0.0/16 holds the cloud
 * metadata service, fe80::/10 its IPv6 neighbours). Every IPv6 form that carries an IPv4
 * address is judged by that address too. Names are checked where they are connected to
 * (see pinned.ts), so the address checked is the address used.
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
  ['::ffff:0:0:0', 96], // IPv4-translated ::ffff:0:a.b.c.d (SIIT): never a public destination
  ['100::', 64], // discard-only
  ['2001::', 32], // Teredo embeds IPv4
  ['2002::', 16], // 6to4 embeds IPv4
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
  ['64:ff9b::', 96], // NAT64 embeds IPv4
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215)
  ['2001:db8::', 32], // documentation
] as const)
  blocked.addSubnet(address, prefix, 'ipv6');

const linkLocal = new net.BlockList();
linkLocal.addSubnet('169.254.0.0', 16, 'ipv4');
linkLocal.addSubnet('fe80::', 10, 'ipv6');

/** Not a public address: private, loopback, link-local, reserved, or carrying one of those. */
export const isPrivateAddress = (address: string): boolean => {
  const family = net.isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  const v6 = normaliseIpv6(address);
  if (!v6) return true; // not an address at all: refuse
  return blocked.check(v6, 'ipv6') || embeddedIpv4s(v6).some((v4) => blocked.check(v4, 'ipv4'));
};

/** Link-local, or an IPv6 form carrying a link-local IPv4 address. */
export const isLinkLocalAddress = (address: string): boolean => {
  const family = net.isIP(address);
  if (family === 4) return linkLocal.check(address, 'ipv4');
  const v6 = normaliseIpv6(address);
  if (!v6) return true;
  return linkLocal.check(v6, 'ipv6') || embeddedIpv4s(v6).some((v4) => linkLocal.check(v4, 'ipv4'));
};

export type TargetCheck = { ok: true; url: URL } | { ok: false; reason: string };

export interface TargetPolicy {
  allowPrivate: boolean;
  /** How host names are resolved (every address); the system resolver unless a test injects one. */
  resolve?: (host: string) => Promise<string[]>;
  /** PEM of a certificate authority trusted for outbound HTTPS (tests trust their own). */
  ca?: string;
}

export const defaultResolve = async (host: string) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** Why `address` may not be called under `policy`, or undefined when it may. */
export const addressRefusal = (host: string, address: string, policy: TargetPolicy): string | undefined => {
  if (policy.allowPrivate)
    return isLinkLocalAddress(address) ? `host ${host} resolves to a link-local address (${address})` : undefined;
  return isPrivateAddress(address) ? `host ${host} resolves to a private or reserved address (${address})` : undefined;
};

/** The URL's host without IPv6 brackets. */
export const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/**
 * C0 controls (CR, LF, TAB, NUL among them), DEL and C1 controls. Checked on the text as
 * given: URL parsing drops tabs and newlines without a word, so a URL carrying them would
 * parse clean while the text stored and shown still holds them.
 */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const controlCharacter = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * The authority as the text writes it (between `scheme://` and the path), or undefined when
 * the text has none. URL parsing makes a host of whatever follows the slashes of an http(s)
 * URL (`http:///x`, `http:x` and `https:\\x` all parse as host `x`), so a URL whose text
 * names no host would be stored as written and called at a host its owner never wrote.
 */
const authorityOf = (raw: string) => /^[a-z][a-z0-9+.-]*:\/\/([^/\\?#]*)/i.exec(raw)?.[1];

/** Syntax only: a URL the service could ever call. */
export const checkTargetSyntax = (raw: string, policy: TargetPolicy): TargetCheck => {
  if (controlCharacter.test(raw)) return { ok: false, reason: 'must not contain control characters' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'not a valid URL' };
  }
  if (url.protocol !== 'https:' && !(policy.allowPrivate && url.protocol === 'http:'))
    return { ok: false, reason: 'must use https' };
  const authority = authorityOf(raw);
  if (!authority) return { ok: false, reason: 'must name its host, as in https://host/path' };
  // `https://@host` carries empty credentials: as refused as full ones
  if (url.username || url.password || authority.includes('@'))
    return { ok: false, reason: 'must not carry credentials' };
  if (url.hash) return { ok: false, reason: 'must not carry a fragment' };
  return { ok: true, url };
};

/**
 * Before a call: syntax, and the address when the host is one. A host name is judged as it
 * is connected to (pinned.ts), from the one look-up whose answer is used.
 */
export const checkTargetBeforeCall = (raw: string, policy: TargetPolicy): TargetCheck => {
  const syntax = checkTargetSyntax(raw, policy);
  if (!syntax.ok) return syntax;
  const host = hostOf(syntax.url);
  if (!net.isIP(host)) return syntax;
  const refusal = addressRefusal(host, host, policy);
  return refusal ? { ok: false, reason: refusal } : syntax;
};

/**
 * At registration: syntax, then every address the host resolves to (with private targets
 * allowed, names are not resolved: a development host name may only resolve where the
 * service runs; calls still check what it resolves to then).
 */
export const checkTarget = async (raw: string, policy: TargetPolicy): Promise<TargetCheck> => {
  const syntax = checkTargetBeforeCall(raw, policy);
  if (!syntax.ok || policy.allowPrivate) return syntax;
  const host = hostOf(syntax.url);
  if (net.isIP(host)) return syntax;
  let addresses: string[];
  try {
    addresses = await (policy.resolve ?? defaultResolve)(host);
  } catch {
    return { ok: false, reason: `host ${host} does not resolve` };
  }
  if (addresses.length === 0) return { ok: false, reason: `host ${host} does not resolve` };
  for (const address of addresses) {
    const refusal = addressRefusal(host, address, policy);
    if (refusal) return { ok: false, reason: refusal };
  }
  return syntax;
};
