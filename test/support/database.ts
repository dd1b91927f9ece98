import pg from 'pg';
import { inject } from 'vitest';
import { newId } from '../../src/ids.js';

/** A fresh, migrated database for one test file (a copy of the run's template). */
export const createTestDatabase = async (): Promise<string> => {
  const adminUrl = inject('pgAdminUrl');
  const name = `t_${newId().toLowerCase()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${inject('pgTemplate')}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
};
