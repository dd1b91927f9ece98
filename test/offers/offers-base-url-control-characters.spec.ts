import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRefusalOf, withControlCharacters } from '../net/control-characters.js';
import { startTestService, type TestService } from '../support/harness.js';
import { eur } from './fixtures.js';

const BASE_URL = 'https://93.184.216.34/fulfil';

/** Every case's answer, refused as validation_failed on the base_url, its message by the character. */
const refusedAll = (cases: [string, string][]) =>
  cases.map(([label]) => [
    label,
    422,
    'validation_failed',
    [{ field: 'body.fulfilment.base_url', message: apiRefusalOf(label) }],
  ]);

describe.each([
  ['sandbox', {}],
  ['production', { env: 'production', extraConfig: { allowPrivateTargets: false } }],
] as const)('a fulfilment base_url with a control character (%s)', (_name, options) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ ...options, limits: { writes: 1000 } });
  });
  afterAll(() => svc.stop());

  const declared = async () => {
    const { api } = await svc.newSupplier();
    const product = await svc.newProduct();
    return { api, offer: { product_id: product.id, stock_mode: 'declared', price: eur(100), external_ref: 'T' } };
  };

  it('is refused on create, and no offer is made', async () => {
    const { api, offer } = await declared();
    const cases = withControlCharacters(BASE_URL);
    const answers = [];
    for (const [label, url] of cases) {
      const res = await api.post('/offers', { ...offer, fulfilment: { base_url: url } });
      answers.push([label, res.status, res.body.code, res.body.errors]);
    }
    expect(answers).toEqual(refusedAll(cases));
    expect((await api.get('/offers')).body.data).toEqual([]);
  });

  it('is refused on PATCH, and the offer keeps its base_url', async () => {
    const { api, offer } = await declared();
    const created = await api.post('/offers', { ...offer, fulfilment: { base_url: BASE_URL } });
    expect(created.status).toBe(201);
    const cases = withControlCharacters(BASE_URL);
    const answers = [];
    for (const [label, url] of cases) {
      const res = await api.patch(`/offers/${created.body.id}`, { fulfilment: { base_url: url }, external_ref: 'U' });
      answers.push([label, res.status, res.body.code, res.body.errors]);
    }
    expect(answers).toEqual(refusedAll(cases));
    expect((await api.get(`/offers/${created.body.id}`)).body).toMatchObject({
      external_ref: 'T',
      fulfilment: { base_url: BASE_URL },
    });
  });
});
