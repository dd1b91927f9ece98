import type { CommandDeps } from '../commands/context.js';
import { followCollision } from '../commands/key-reviews.js';
import type { InventoryEvent } from '../domain/inventory.js';
import { required } from '../domain/required.js';
import { projector } from '../projections/projector.js';
import { timerCaller } from './caller.js';
import { scheduleTimer } from './schedule.js';
import type { Timers } from './timers.js';

/** How long a collision with an item not recorded yet waits before it is looked at again. */
const LOOK_AGAIN_MS = 60_000;

/**
 * An upload whose keys other suppliers hold: one timer per upload (keyed by its first held
 * item), written with this process's checkpoint, so each collision is followed once.
 */
export const keyCollisionProcess = projector<InventoryEvent>({
  name: 'key-collision-process',
  version: 1,
  tables: [],
  ddl: () => '',
  rebuildable: false,
  handlers: {
    InventoryUploaded: (db, e) => {
      const { offerId, itemIds, held, at } = e.data;
      const [first] = held;
      if (!first) return undefined;
      const heldItemId = (place: number) => required(itemIds[place], `the held item at place ${place}`);
      return scheduleTimer('inventory.collision', heldItemId(first.place), at, {
        offerId,
        held: held.map((h) => ({ ...h, heldItemId: heldItemId(h.place) })),
      });
    },
  },
});

/**
 * Follows each collision (commands/key-reviews.ts), and tells the operator: the metric
 * `svc_key_collisions_total` and one log line per collision, naming the items, offers and
 * suppliers, never a key. The uploader is told nothing beyond its item's status.
 */
export const registerKeyCollisionTimers = (timers: Timers, deps: CommandDeps) => {
  timers.on('inventory.collision', async (t) => {
    const { offerId, held } = t.payload;
    let lookAgain = false;
    for (const collision of held) {
      const outcome = await followCollision(deps, offerId, collision, timerCaller(t));
      if (outcome === 'other_not_recorded_yet') {
        lookAgain = true;
        continue;
      }
      deps.metrics?.keyCollisions.inc({ outcome });
      timers.log.warn(
        {
          collision: {
            itemId: collision.heldItemId,
            offerId,
            withItemId: collision.itemId,
            withOfferId: collision.offerId,
            withSupplierId: collision.supplierId,
            outcome,
          },
        },
        "key collision: an uploaded key is another supplier's item's, held under review",
      );
    }
    return lookAgain ? { runAgainAt: new Date(deps.clock.now().getTime() + LOOK_AGAIN_MS) } : undefined;
  });
};
