import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

const env = (vars: Record<string, string>) => vars as NodeJS.ProcessEnv;

describe('settings', () => {
  it('has the operator contract defaults', () => {
    const c = loadConfig(env({}));
    expect(c).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      env: 'sandbox',
      databaseUrl: undefined,
      dataDir: path.resolve('.data/sandbox'),
      operatorToken: undefined,
      secretKey: undefined,
      testClock: false,
      allowPrivateTargets: false,
      eventStore: 'postgres',
    });
    expect(
      loadConfig(env({ SVC_ENV: 'production', SVC_SECRET_KEY: 'a'.repeat(64), SVC_LEDGER_SIGNING_KEY: 'b'.repeat(64) }))
        .dataDir,
    ).toBe(path.resolve('.data/production'));
  });

  it('reads every named setting', () => {
    const c = loadConfig(
      env({
        PORT: '9001',
        HOST: '0.0.0.0',
        DATABASE_URL: 'postgres://x@h/db',
        SVC_DATA_DIR: '/srv/data',
        SVC_OPERATOR_TOKEN: 'operator-token-0123456789',
        SVC_SECRET_KEY: 'AB'.repeat(32),
        SVC_TEST_CLOCK: '1',
        SVC_ALLOW_PRIVATE_TARGETS: '1',
      }),
    );
    expect(c).toMatchObject({
      port: 9001,
      host: '0.0.0.0',
      databaseUrl: 'postgres://x@h/db',
      dataDir: '/srv/data',
      operatorToken: 'operator-token-0123456789',
      secretKey: 'ab'.repeat(32),
      testClock: true,
      allowPrivateTargets: true,
    });
  });

  it('refuses test-only switches and a generated key in production', () => {
    const refused = (vars: Record<string, string>) => {
      try {
        loadConfig(
          env({
            SVC_ENV: 'production',
            SVC_SECRET_KEY: 'a'.repeat(64),
            SVC_LEDGER_SIGNING_KEY: 'b'.repeat(64),
            ...vars,
          }),
        );
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    expect(refused({ SVC_TEST_CLOCK: '1' })).toContain('SVC_TEST_CLOCK');
    expect(refused({ SVC_ALLOW_PRIVATE_TARGETS: '1' })).toContain('SVC_ALLOW_PRIVATE_TARGETS');
    expect(refused({ SVC_SECRET_KEY: '' })).toContain('SVC_SECRET_KEY');
    expect(refused({ SVC_LEDGER_SIGNING_KEY: '' })).toContain(
      'SVC_LEDGER_SIGNING_KEY: production needs an explicit ledger signing key',
    );
  });

  it('rejects malformed values with the setting named', () => {
    expect(() => loadConfig(env({ PORT: 'eighty' }))).toThrow(/PORT/);
    expect(() => loadConfig(env({ SVC_ENV: 'staging' }))).toThrow(/SVC_ENV/);
    expect(() => loadConfig(env({ SVC_SECRET_KEY: 'short' }))).toThrow(/SVC_SECRET_KEY/);
    expect(() => loadConfig(env({ SVC_LEDGER_SIGNING_KEY: 'ab'.repeat(31) }))).toThrow(/SVC_LEDGER_SIGNING_KEY/);
    expect(() => loadConfig(env({ SVC_EVENT_STORE: 'kurrentdb' }))).toThrow(/SVC_KURRENTDB_URL/);
    expect(() => loadConfig(env({ SVC_EVENT_STORE: 'kurrentdb', SVC_KURRENTDB_URL: 'localhost:2113' }))).toThrow(
      /SVC_KURRENTDB_URL: must be a KurrentDB connection string/,
    );
  });

  it('selects KurrentDB with a kurrentdb:// or esdb:// connection string', () => {
    expect(
      loadConfig(env({ SVC_EVENT_STORE: 'kurrentdb', SVC_KURRENTDB_URL: 'esdb://localhost:2113?tls=false' })),
    ).toMatchObject({
      eventStore: 'kurrentdb',
      kurrentdbUrl: 'esdb://localhost:2113?tls=false',
    });
    const cluster = 'kurrentdb://admin:changeit@node1:2113,node2:2113,node3:2113?tls=true';
    expect(loadConfig(env({ SVC_EVENT_STORE: 'kurrentdb', SVC_KURRENTDB_URL: cluster })).kurrentdbUrl).toBe(cluster);
  });
});
