import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRefusalOf, withControlCharacters } from '../net/control-characters.js';
import { startTestService, type TestService } from '../support/harness.js';

const URL_OK = 'https://93.184.216.34/hooks';

/** Every case's answer, refused as validation_failed on the url, its message by the character. */
const refusedAll = (cases: [string, string][]) =>
  cases.map(([label]) => [label, 422, 'validation_failed', [{ field: 'body.url', message: apiRefusalOf(label) }]]);

describe.each([
  ['sandbox', {}],
  ['production', { env: 'production', extraConfig: { allowPrivateTargets: false } }],
] as const)('a webhook url with a control character (%s)', (_name, options) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ ...options, limits: { writes: 1000 } });
  });
  afterAll(() => svc.stop());

  it('is refused on create, and no endpoint is made', async () => {
    const { api } = await svc.newSupplier();
    const cases = withControlCharacters(URL_OK);
    const answers = [];
    for (const [label, url] of cases) {
      const res = await api.post('/webhooks', { url, events: ['*'] });
      answers.push([label, res.status, res.body.code, res.body.errors]);
    }
    expect(answers).toEqual(refusedAll(cases));
    expect((await api.get('/webhooks')).body.data).toEqual([]);
  });

  it('is refused on PATCH, and the endpoint keeps its url', async () => {
    const { api } = await svc.newSupplier();
    const created = await api.post('/webhooks', { url: URL_OK, events: ['*'] });
    expect(created.status).toBe(201);
    const cases = withControlCharacters(URL_OK);
    const answers = [];
    for (const [label, url] of cases) {
      const res = await api.patch(`/webhooks/${created.body.id}`, { url, description: 'changed' });
      answers.push([label, res.status, res.body.code, res.body.errors]);
    }
    expect(answers).toEqual(refusedAll(cases));
    const listed = (await api.get('/webhooks')).body.data;
    expect(listed.map((e: { url: string; description: string }) => [e.url, e.description])).toEqual([[URL_OK, '']]);
    expect((await api.get(`/webhooks/${created.body.id}`)).body).toMatchObject({ url: URL_OK, description: '' });
  });
});
