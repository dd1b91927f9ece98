import pg from 'pg';

/**
 * Statement texts sent as named prepared statements. PostgreSQL then parses and plans such a
 * text once per connection instead of on every call: for a hot primary-key read that is a
 * good part of the server's work, on the cores the service shares with it. Only fixed texts
 * belong here (compiled once, parameters bound): every distinct text stays prepared on each
 * pooled connection for that connection's life.
 */
const names = new Map<string, string>();

/** Sends `text` as a named prepared statement from now on. */
export const prepare = (text: string): void => {
  if (!names.has(text)) names.set(text, `prepared_${names.size}`);
};

/**
 * A prepared statement whose result no longer has the columns it was planned with: a table
 * it reads with `*` gained a column (a newer version's migration, run while this one serves).
 * Known by the server's routine, which no `lc_messages` translates, or by its English text.
 */
const replanned = (error: unknown): boolean =>
  error instanceof pg.DatabaseError &&
  error.code === '0A000' &&
  (error.routine === 'RevalidateCachedQuery' || error.message.includes('cached plan must not change result type'));

/** The transaction was ended by an earlier error: what it says is that error's consequence. */
const inFailedTransaction = (error: unknown): boolean => error instanceof pg.DatabaseError && error.code === '25P02';

export type Send = (text: string, values?: unknown[]) => Promise<pg.QueryResult | pg.QueryResult[]>;

/**
 * How one connection sends a text: as the prepared statement it is, else as it is. A
 * statement that fails as `replanned` would fail so on every call of this connection, so it is
 * prepared again under a new name and sent once more. Within a transaction the failure has
 * already ended it: the transaction fails with the original error, as on any other, and the
 * next call prepares the new name.
 */
export const sender = (client: pg.ClientBase): Send => {
  const generations = new Map<string, number>();
  const configOf = (name: string, text: string, values?: unknown[]): pg.QueryConfig => {
    const generation = generations.get(text);
    return { name: generation === undefined ? name : `${name}_${generation}`, text, values };
  };
  return (text, values) => {
    const name = names.get(text);
    if (name === undefined) return client.query(text, values);
    return client.query(configOf(name, text, values)).catch((error: unknown) => {
      if (!replanned(error)) throw error;
      generations.set(text, (generations.get(text) ?? 0) + 1);
      return client.query(configOf(name, text, values)).catch((again: unknown) => {
        throw inFailedTransaction(again) ? error : again;
      });
    });
  };
};
