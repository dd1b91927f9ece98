import { describe, it } from 'vitest';
import { type WebhookEndpointEvent, webhookEndpointDecider } from '../../src/domain/webhook-endpoint.js';
import { givenFor } from '../support/given.js';

const given = givenFor(webhookEndpointDecider);
const t0 = '2026-01-05T10:00:00.000Z';
const t1 = '2026-01-05T11:00:00.000Z';
const ids = { endpointId: 'we1', supplierId: 's1' };

const created: WebhookEndpointEvent = {
  type: 'WebhookEndpointCreated',
  data: { ...ids, url: 'https://hooks.example/a', events: ['*'], description: '', secretSealed: 'S0', at: t0 },
};
const rotated = (secretSealed: string, previousSecretSealed: string, rotationId?: string): WebhookEndpointEvent => ({
  type: 'WebhookSecretRotated',
  data: {
    ...ids,
    secretSealed,
    previousSecretSealed,
    previousValidUntil: '2026-01-06T11:00:00.000Z',
    ...(rotationId !== undefined && { rotationId }),
    at: t1,
  },
});
const rotate = (secretSealed: string, rotationId?: string) => ({
  type: 'RotateSecret' as const,
  data: { secretSealed, overlapMs: 24 * 3600_000, ...(rotationId !== undefined && { rotationId }), now: t1 },
});

describe('WebhookEndpoint: secret rotation', () => {
  it('rotates to the new secret, the current one signing beside it for the overlap', () => {
    given(created)
      .when(rotate('S1', 'r1'))
      .then([rotated('S1', 'S0', 'r1')]);
  });

  it('the same rotation again (its request run again) is made already; another one rotates on', () => {
    given(created, rotated('S1', 'S0', 'r1'))
      .when(rotate('S2', 'r1'))
      .then([]);
    given(created, rotated('S1', 'S0', 'r1'))
      .when(rotate('S2', 'r2'))
      .then([rotated('S2', 'S1', 'r2')]);
    // rotations recorded before they had an identity are never taken for this one
    given(created, rotated('S1', 'S0'))
      .when(rotate('S2', 'r1'))
      .then([rotated('S2', 'S1', 'r1')]);
  });
});
