/**
 * The start was refused: the event store SVC_KURRENTDB_URL names did not answer. Kept apart
 * from the adapter so that a start on Postgres never loads the KurrentDB client.
 */
export class EventStoreUnreachable extends Error {}
