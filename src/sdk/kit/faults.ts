import { KIT_ROUTES, type KitFault, type KitFaults, type KitRoute } from './types.js';

type Kind = KitFault['kind'];

const ANY: Kind[] = ['delay', 'status', 'hang', 'malformed'];

/** Which fault kinds fit which route. */
const FITS: Record<KitRoute, Kind[]> = {
  'GET /healthcheck': ANY,
  'POST /reservations': ANY,
  'DELETE /reservations/:id': ANY,
  'POST /orders': [...ANY, 'pending_stock', 'reservation_expired'],
  'GET /orders/:id/items': [...ANY, 'wrong_count', 'stay_pending'],
  'DELETE /orders/:id/items': ANY,
  'POST /topup/validate': [...ANY, 'validate_invalid'],
  'POST /topup/execute': [...ANY, 'topup_failed', 'topup_processing'],
  'GET /topup/operations/:id': ANY,
};

interface Active {
  fault: KitFault;
  remaining: number | null;
}

/** Per-route faults, set and cleared at runtime; a `times` fault clears itself once used up. */
export class FaultTable implements KitFaults {
  private readonly active = new Map<KitRoute, Active>();

  set(route: KitRoute, fault: KitFault): void {
    if (!KIT_ROUTES.includes(route))
      throw new Error(`unknown route ${String(route)}; one of: ${KIT_ROUTES.join(', ')}`);
    if (!FITS[route].includes(fault.kind)) throw new Error(`fault ${fault.kind} does not apply to ${route}`);
    if (fault.times !== undefined && (!Number.isInteger(fault.times) || fault.times < 1))
      throw new Error('times must be a positive integer');
    this.active.set(route, { fault: { ...fault }, remaining: fault.times ?? null });
  }

  clear(route?: KitRoute): void {
    if (route === undefined) this.active.clear();
    else this.active.delete(route);
  }

  get(route: KitRoute): (KitFault & { remaining: number | null }) | undefined {
    const a = this.active.get(route);
    return a && { ...a.fault, remaining: a.remaining };
  }

  /** The route's fault of one of `kinds`, without using it. */
  peek(route: KitRoute, kinds: readonly Kind[]): KitFault | undefined {
    const a = this.active.get(route);
    return a && kinds.includes(a.fault.kind) ? a.fault : undefined;
  }

  /** Counts one use of the route's fault; clears it when its `times` are used up. */
  use(route: KitRoute): void {
    const a = this.active.get(route);
    if (!a || a.remaining === null) return;
    a.remaining -= 1;
    if (a.remaining <= 0) this.active.delete(route);
  }
}

export const GENERIC_KINDS = ANY;
