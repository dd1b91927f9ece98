import { describe, expect, it } from 'vitest';
import { embeddedIpv4s, normaliseIpv6 } from '../../src/net/addresses.js';
import { checkTarget, isLinkLocalAddress, isPrivateAddress } from '../../src/net/targets.js';

describe('IPv6 forms that carry an IPv4 address are judged by it', () => {
  it('normalises every spelling and finds the embedded IPv4', () => {
    expect(normaliseIpv6('::ffff:0:127.0.0.1')).toBe('0:0:0:0:ffff:0:7f00:1');
    expect(normaliseIpv6('[::1]')).toBeUndefined();
    expect(normaliseIpv6('fe80::1%eth0')).toBe('fe80:0:0:0:0:0:0:1');
    for (const [address, v4] of [
      ['::ffff:127.0.0.1', '127.0.0.1'], // mapped
      ['::ffff:7f00:1', '127.0.0.1'],
      ['::ffff:0:127.0.0.1', '127.0.0.1'], // translated
      ['::ffff:0:a00:1', '10.0.0.1'],
      ['::10.0.0.1', '10.0.0.1'], // compatible
      ['2002:a9fe:a9fe::1', '169.254.169.254'], // 6to4
      ['64:ff9b::10.1.2.3', '10.1.2.3'], // NAT64
      ['64:ff9b::a9fe:a9fe', '169.254.169.254'],
      ['64:ff9b:1::a9fe:a9fe', '169.254.169.254'], // local-use NAT64, /96 position
      ['64:ff9b:1:a9fe:a9:fe00::', '169.254.169.254'], // local-use NAT64, /48 position
    ] as const)
      expect([address, embeddedIpv4s(address)]).toEqual([address, expect.arrayContaining([v4])]);
    // Teredo: the server, and the client address stored inverted
    expect(embeddedIpv4s('2001:0:4136:e378:8000:63bf:3fff:fdd2')).toEqual(['65.54.227.120', '192.0.2.45']);
  });

  it('in production, every IPv4-embedding form of a non-public address is refused', () => {
    for (const address of [
      '::ffff:0:127.0.0.1',
      '::ffff:0:7f00:1',
      '::ffff:0:10.0.0.1',
      '::ffff:0:169.254.169.254',
      '::127.0.0.1',
      '::a9fe:a9fe',
      '2002:7f00:1::',
      '2002:c0a8:101::1',
      '2001:0:4136:e378:8000:63bf:80ff:fffe',
      '64:ff9b::127.0.0.1',
      '64:ff9b:1::7f00:1',
      '64:ff9b:1:7f00:0:100::',
    ])
      expect([address, isPrivateAddress(address)]).toEqual([address, true]);
    expect(isPrivateAddress('::ffff:8.8.8.8')).toBe(false);
    expect(isPrivateAddress('2606:4700:4700::1111')).toBe(false);
  });

  it('https://[::ffff:0:127.0.0.1]/ is refused in production', async () => {
    const policy = { allowPrivate: false, resolve: async () => ['93.184.216.34'] };
    expect(await checkTarget('https://[::ffff:0:127.0.0.1]/', policy)).toEqual({
      ok: false,
      reason: 'host ::ffff:0:7f00:1 resolves to a private or reserved address (::ffff:0:7f00:1)',
    });
    expect(await checkTarget('https://[64:ff9b::a9fe:a9fe]/', policy)).toMatchObject({ ok: false });
  });

  it('with private targets allowed, loopback and private ranges pass but link-local never does', async () => {
    const dev = { allowPrivate: true };
    for (const url of [
      'http://127.0.0.1:8080/',
      'http://10.0.0.5/',
      'https://192.168.1.10/',
      'http://[::1]:9000/',
      'http://[fd00::1]/',
      'http://localhost:3000/',
    ])
      expect([url, (await checkTarget(url, dev)).ok]).toEqual([url, true]);
    for (const [url, host] of [
      ['http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
      ['http://169.254.1.1/', '169.254.1.1'],
      ['http://[fe80::1]/', 'fe80::1'],
      ['http://[::ffff:169.254.169.254]/', '::ffff:a9fe:a9fe'],
      ['http://[::ffff:0:169.254.169.254]/', '::ffff:0:a9fe:a9fe'],
      ['http://[2002:a9fe:a9fe::]/', '2002:a9fe:a9fe::'],
      ['http://[64:ff9b::169.254.169.254]/', '64:ff9b::a9fe:a9fe'],
    ] as const)
      expect([url, await checkTarget(url, dev)]).toEqual([
        url,
        { ok: false, reason: `host ${host} resolves to a link-local address (${host})` },
      ]);
    expect(isLinkLocalAddress('10.0.0.1')).toBe(false);
    expect(isLinkLocalAddress('fe80::abcd')).toBe(true);
  });
});
