import { inject } from 'vitest';
import { withAdminClient } from '../../src/db/admin-client.js';
import { newId } from '../../src/ids.js';

/** A fresh, migrated database for one test file (a copy of the run's template). */
export const createTestDatabase = async (): Promise<string> => {
  const adminUrl = inject('pgAdminUrl');
  const name = `t_${newId().toLowerCase()}`;
  await withAdminClient(adminUrl, (admin) => admin.query(`create database ${name} template ${inject('pgTemplate')}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
};
