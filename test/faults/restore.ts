import pg from 'pg';
import { inject } from 'vitest';
import { newId } from '../../src/ids.js';

const withAdmin = async <T>(work: (admin: pg.Client) => Promise<T>): Promise<T> => {
  const admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
};

/** Keeps every session off `database` (ending those it has) while `work` runs. */
const alone = async <T>(admin: pg.Client, database: string, work: () => Promise<T>): Promise<T> => {
  await admin.query(`alter database ${database} with allow_connections false`);
  try {
    for (;;) {
      const { rows } = await admin.query<{ n: number }>(
        `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = $1`,
        [database],
      );
      if (rows[0]!.n === 0) return await work();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await admin.query(`alter database ${database} with allow_connections true`);
  }
};

/**
 * Backups of one test database and their restore in its place, on the suite's server: a
 * backup is a copy of the database (`create database ... template`), and a restore renames
 * the copy to the database's name, so a service left running reconnects to the earlier
 * moment, as after a restore from backup. Each step ends the database's sessions first.
 */
export const backupsOf = (databaseUrl: string) => {
  const name = new URL(databaseUrl).pathname.slice(1);
  return {
    /** A copy of the database as it is now; answers its name. */
    backup: () =>
      withAdmin(async (admin) => {
        const copy = `${name}_b${newId().toLowerCase().slice(-8)}`;
        await alone(admin, name, () => admin.query(`create database ${copy} template ${name}`));
        return copy;
      }),
    /** Puts `copy` in the database's place; the database as it was is kept under another name. */
    restore: (copy: string) =>
      withAdmin(async (admin) => {
        await alone(admin, name, async () => {
          await admin.query(`alter database ${name} rename to ${name}_l${newId().toLowerCase().slice(-8)}`);
          await admin.query(`alter database ${copy} rename to ${name}`);
        });
      }),
  };
};
