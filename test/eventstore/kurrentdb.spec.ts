import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { KurrentDbEventStore } from '../../src/eventstore/kurrentdb.js';
import { type RecordedEvent, WrongExpectedRevision } from '../../src/eventstore/port.js';
import { newId } from '../../src/ids.js';
import { eventStoreConformance, eventually } from './conformance.js';

/**
 * The conformance suite against a real KurrentDB: the server SVC_KURRENTDB_URL names, or
 * one started in Docker through testcontainers. Without either the suite is skipped with
 * one line saying why; no stand-in server ever replaces KurrentDB.
 */
const IMAGE = 'docker.kurrent.io/kurrent-latest/kurrentdb:25.1';

interface Target {
  url: string;
  /** Stops the node and starts it again on the same address (Docker only). */
  restart?: () => Promise<void>;
  stop(): Promise<void>;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });

const startInDocker = async (): Promise<Target | string> => {
  const { GenericContainer, Wait, getContainerRuntimeClient } = await import('testcontainers');
  try {
    await getContainerRuntimeClient();
  } catch (error) {
    return `no SVC_KURRENTDB_URL and no Docker engine (${(error as Error).message})`;
  }
  // a fixed host port, so the node comes back on the same address after a restart
  const port = await freePort();
  const container = await new GenericContainer(IMAGE)
    .withEnvironment({ KURRENTDB_INSECURE: 'true', KURRENTDB_RUN_PROJECTIONS: 'None', KURRENTDB_CLUSTER_SIZE: '1' })
    .withExposedPorts({ container: 2113, host: port })
    .withWaitStrategy(Wait.forHttp('/health/live', 2113).forStatusCode(204))
    .withStartupTimeout(120_000)
    .start();
  return {
    url: `kurrentdb://${container.getHost()}:${port}?tls=false`,
    restart: () => container.restart(),
    stop: async () => void (await container.stop()),
  };
};

const target: Target | string = process.env.SVC_KURRENTDB_URL
  ? { url: process.env.SVC_KURRENTDB_URL, stop: async () => undefined }
  : await startInDocker();

if (typeof target === 'string') {
  console.log(`KurrentDB event store conformance skipped: ${target}`);
  describe.skip('event store conformance: kurrentdb', () => {
    it('needs SVC_KURRENTDB_URL or a Docker engine', () => undefined);
  });
} else {
  const server = target;
  afterAll(() => server.stop());
  const open = async () => {
    const store = KurrentDbEventStore.create(server.url);
    return { store, close: () => store.close() };
  };

  // appends to several streams go one after another on KurrentDB (see docs/decisions.md)
  eventStoreConformance('kurrentdb', open, { appendMany: false });

  describe('kurrentdb event store: what only KurrentDB can show', () => {
    it("never hands over KurrentDB's own events ($-streams, $-types)", async () => {
      const { store, close } = await open();
      try {
        const from = await store.head();
        const s = `k-${newId()}`;
        await store.append(s, [{ type: 'Mine', data: {} }], 'no_stream', new Date());
        // a stream's metadata is an event in the $$ stream: KurrentDB's own
        const client = (store as unknown as { client: { setStreamMetadata(s: string, m: object): Promise<unknown> } })
          .client;
        await client.setStreamMetadata(s, { maxAge: 86_400 });
        await store.append(s, [{ type: 'Mine', data: {} }], 0, new Date());
        const after = await store.readAll(from, 1000);
        expect(after.every((e) => !e.streamId.startsWith('$') && !e.type.startsWith('$'))).toBe(true);
        expect(after.filter((e) => e.streamId === s).map((e) => e.revision)).toEqual([0, 1]);
        expect(await store.head()).toEqual(after[after.length - 1]!.position);
      } finally {
        await close();
      }
    });

    it('reports a conflict with the actual revision', async () => {
      const { store, close } = await open();
      try {
        const s = `k-${newId()}`;
        await store.append(
          s,
          [
            { type: 'A', data: {} },
            { type: 'B', data: {} },
          ],
          'no_stream',
          new Date(),
        );
        const error = await store.append(s, [{ type: 'C', data: {} }], 0, new Date()).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(WrongExpectedRevision);
        expect(error).toMatchObject({ streamId: s, expected: 0, actual: 1 });
      } finally {
        await close();
      }
    });

    it.skipIf(!server.restart)(
      'resubscribes after the node went away, from the last position handed over: nothing lost, nothing twice',
      async () => {
        const { store, close } = await open();
        const s = `k-${newId()}`;
        const seen: RecordedEvent[] = [];
        const from = await store.head();
        const sub = store.subscribe({
          from,
          onEvents: async (events) => void seen.push(...events.filter((e) => e.streamId === s)),
        });
        try {
          await store.append(s, [{ type: 'Before', data: {} }], 'no_stream', new Date());
          await eventually(() => seen.length === 1);
          await server.restart!();
          for (let attempt = 0; ; attempt++) {
            try {
              await store.append(s, [{ type: 'After', data: {} }], 0, new Date());
              break;
            } catch (error) {
              if (attempt > 50) throw error;
              await new Promise((r) => setTimeout(r, 200));
            }
          }
          await eventually(() => seen.length === 2, 60_000);
          expect(seen.map((e) => e.type)).toEqual(['Before', 'After']);
        } finally {
          await sub.close();
          await close();
        }
      },
      180_000,
    );
  });
}
