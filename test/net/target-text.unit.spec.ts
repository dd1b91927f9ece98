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
