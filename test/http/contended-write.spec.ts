import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { WrongExpectedRevision } from '../../src/eventstore/port.js';
import { registerErrorHandling } from '../../src/http/errors.js';

/**
 * A write that loses the race for one of its streams on every decision it is allowed (three
 * instances selling one offer's stock at once, as the rolling-restart test found) wrote
 * nothing: it is answered as a retryable 503, not as an unexplained 500.
 */
describe('a write contended past its retries', () => {
  it('answers 503 service_unavailable with Retry-After', async () => {
    const app = Fastify();
    registerErrorHandling(app);
    app.post('/orders', async () => {
      throw new WrongExpectedRevision('inventory-01TEST', 745, 747);
    });
    const answer = await app.inject({ method: 'POST', url: '/orders' });
    expect(answer.statusCode).toBe(503);
    expect(answer.headers['retry-after']).toBe('1');
    expect(answer.headers['content-type']).toContain('application/problem+json');
    expect(answer.json()).toMatchObject({
      status: 503,
      code: 'service_unavailable',
      detail: 'too many writes to the same resource at once; retry shortly',
    });
    await app.close();
  });
});
