import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { verifySignature } from '../../src/sdk/index.js';

/** Vectors computed by the openssl CLI, independently of the project's code. */
const hmac = (secret: string, timestamp: string, body: string) =>
  execFileSync('openssl', ['dgst', '-sha256', '-hmac', secret], { input: `${timestamp}.${body}` })
    .toString()
    .trim()
    .split('= ')
    .pop()!;

const secret = 'whsec_00112233445566778899aabbccddeeff';
const old = 'whsec_ffeeddccbbaa99887766554433221100';
const body = '{"id":"01H","type":"order.paid","data":{"order":{"id":"o1"}}}';
const ts = '1767610000000';
const now = () => Number(ts);

describe('verifySignature (Authentication point 4)', () => {
  const good = hmac(secret, ts, body);

  it('accepts the v1 signature of the timestamp, a period and the raw body', () => {
    expect(
      verifySignature(body, { 'x-svc-timestamp': ts, 'x-svc-signature': `v1=${good}` }, [secret], { now }),
    ).toEqual({ ok: true, timestamp: Number(ts) });
  });

  it('ignores unknown schemes, reads several v1 entries, and any of several secrets during a rotation', () => {
    expect(
      verifySignature(body, { 'x-svc-timestamp': ts, 'x-svc-signature': `v2=abc,v1=${good}` }, [secret], { now }).ok,
    ).toBe(true);
    expect(
      verifySignature(
        body,
        { 'x-svc-timestamp': ts, 'x-svc-signature': `v1=${hmac(old, ts, body)},v1=${good}` },
        [secret],
        { now },
      ).ok,
    ).toBe(true);
    expect(
      verifySignature(body, { 'x-svc-timestamp': ts, 'x-svc-signature': `v1=${hmac(old, ts, body)}` }, [secret, old], {
        now,
      }).ok,
    ).toBe(true);
    expect(
      verifySignature(body, { 'x-svc-timestamp': ts, 'x-svc-signature': `v2=${good}` }, [secret], { now }),
    ).toEqual({ ok: false, reason: 'no_v1_signature' });
  });

  it('refuses a re-serialized body, another secret, a stale or non-digit timestamp, and missing headers', () => {
    const reserialized = JSON.stringify(JSON.parse(body), null, 1);
    expect(
      verifySignature(reserialized, { 'x-svc-timestamp': ts, 'x-svc-signature': `v1=${good}` }, [secret], { now }),
    ).toEqual({ ok: false, reason: 'signature_mismatch' });
    expect(verifySignature(body, { 'x-svc-timestamp': ts, 'x-svc-signature': `v1=${good}` }, [old], { now }).ok).toBe(
      false,
    );
    expect(
      verifySignature(body, { 'x-svc-timestamp': ts, 'x-svc-signature': `v1=${good}` }, [secret], {
        now: () => Number(ts) + 300_001,
      }),
    ).toEqual({ ok: false, reason: 'stale_timestamp' });
    expect(
      verifySignature(body, { 'x-svc-timestamp': ts, 'x-svc-signature': `v1=${good}` }, [secret], {
        now: () => Number(ts) - 300_000,
      }).ok,
    ).toBe(true);
    expect(
      verifySignature(body, { 'x-svc-timestamp': `${ts}.0`, 'x-svc-signature': `v1=${good}` }, [secret], { now }),
    ).toEqual({ ok: false, reason: 'invalid_timestamp' });
    expect(verifySignature(body, { 'x-svc-signature': `v1=${good}` }, [secret], { now })).toEqual({
      ok: false,
      reason: 'missing_timestamp',
    });
    expect(verifySignature(body, { 'x-svc-timestamp': ts }, [secret], { now })).toEqual({
      ok: false,
      reason: 'missing_signature',
    });
    expect(
      verifySignature(body, { 'x-svc-timestamp': ts, 'x-svc-signature': `v1=${good.toUpperCase()}` }, [secret], { now })
        .ok,
    ).toBe(false);
  });
});
