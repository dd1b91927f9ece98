import { describe, expect, it } from 'vitest';
import { checkTarget, checkTargetBeforeCall } from '../../src/net/targets.js';
import { withControlCharacters } from './control-characters.js';

describe('a URL with a control character in its text', () => {
  const refused = { ok: false, reason: 'must not contain control characters' };

  it('is refused at registration and before a call, in both target policies', async () => {
    const url = 'https://93.184.216.34/fulfil';
    for (const allowPrivate of [false, true]) {
      const policy = { allowPrivate, resolve: async () => ['93.184.216.34'] };
      expect((await checkTarget(url, policy)).ok).toBe(true);
      for (const [label, bad] of withControlCharacters(url)) {
        expect([allowPrivate, label, await checkTarget(bad, policy)]).toEqual([allowPrivate, label, refused]);
        expect([allowPrivate, label, checkTargetBeforeCall(bad, policy)]).toEqual([allowPrivate, label, refused]);
      }
    }
  });

  it('is refused although URL parsing would drop or escape the character', () => {
    // what let them through: the parsed URL looks clean while the text still carries them
    expect(new URL('https://93.184.216.34/ful\r\nfil\t').href).toBe('https://93.184.216.34/fulfil');
    expect(new URL('https://93.184.216.34/ful\0fil\x7f').href).toBe('https://93.184.216.34/ful%00fil%7F');
  });
});

describe('a URL whose text names no host', () => {
  const noHost = { ok: false, reason: 'must name its host, as in https://host/path' };

  it('is refused at registration and before a call, in both target policies, though URL parsing finds one', async () => {
    // what let them through: the parser makes a host of what follows the slashes
    expect(new URL('http:///x').host).toBe('x');
    expect(new URL('https:\\\\x').host).toBe('x');
    for (const allowPrivate of [false, true]) {
      const policy = { allowPrivate, resolve: async () => ['93.184.216.34'] };
      const scheme = allowPrivate ? 'http' : 'https';
      for (const url of [
        `${scheme}:///x`,
        `${scheme}:///93.184.216.34/fulfil`,
        `${scheme}:/x`,
        `${scheme}:x`,
        `${scheme}:\\\\x`,
        `${scheme}://\\x`,
        `${scheme}:/\\x`,
      ]) {
        expect([allowPrivate, url, await checkTarget(url, policy)]).toEqual([allowPrivate, url, noHost]);
        expect([allowPrivate, url, checkTargetBeforeCall(url, policy)]).toEqual([allowPrivate, url, noHost]);
      }
      // empty credentials are credentials
      expect(await checkTarget(`${scheme}://@93.184.216.34/fulfil`, policy)).toEqual({
        ok: false,
        reason: 'must not carry credentials',
      });
      for (const url of [`${scheme}://93.184.216.34/fulfil`, `${scheme.toUpperCase()}://93.184.216.34:8443`])
        expect([url, (await checkTarget(url, policy)).ok]).toEqual([url, true]);
    }
  });
});
