import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { newSecretKey } from '../../src/crypto/secret-box.js';
import { newOperatorToken } from '../../src/crypto/tokens.js';
import { startService } from '../../src/service.js';
import { createTestDatabase } from '../support/database.js';
import { client } from '../support/http.js';

describe('the operator test clock (SVC_TEST_CLOCK=1)', () => {
  it('keeps its offset across a restart, and instances on one database add their advances up', async () => {
    const databaseUrl = await createTestDatabase();
    const operatorToken = newOperatorToken();
    const secretKey = newSecretKey();
    const start = () =>
      startService({
        config: loadConfig({ PORT: '0', SVC_TEST_CLOCK: '1', LOG_LEVEL: 'silent' }),
        databaseUrl,
        operatorToken,
        secretKey,
        logger: pino({ level: 'silent' }),
        backgroundTimers: false,
        poolSize: 4,
      });
    const day = 24 * 3600_000;

    const first = await start();
    const op = client(`${await first.listen()}/operator/v1`, operatorToken);
    const advanced = await op.post('/clock/advance', { seconds: 10 * 24 * 3600 });
    expect(advanced.status).toBe(200);
    const movedTo = Date.parse(advanced.body.now);
    expect(movedTo - Date.now()).toBeGreaterThan(10 * day - 60_000);
    await first.stop();

    const second = await start();
    try {
      // the restarted instance is still ten days ahead: time never went back
      expect(second.services.clock.now().getTime()).toBeGreaterThanOrEqual(movedTo);
      expect(second.services.clock.now().getTime() - Date.now()).toBeGreaterThan(10 * day - 60_000);
      const again = await client(`${await second.listen()}/operator/v1`, operatorToken).post('/clock/advance', {
        seconds: 24 * 3600,
      });
      expect(Date.parse(again.body.now) - Date.now()).toBeGreaterThan(11 * day - 60_000);
      expect(Date.parse(again.body.now) - Date.now()).toBeLessThan(11 * day + 60_000);
    } finally {
      await second.stop();
    }
  });
});
