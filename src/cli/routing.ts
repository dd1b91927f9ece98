import type { Config } from '../config.js';
import type { EventStore } from '../eventstore/port.js';
import { routingStream } from '../commands/streams.js';
import { isEligible } from '../domain/routing.js';
import { type LineReceipt, replayLine, routingOrder, type RoutingReceipt } from '../domain/routing-receipt.js';
import { withStores } from './stores.js';

/** An order's routing receipt as recorded, or undefined when it has none (placed before receipts). */
export const receiptOf = async (store: EventStore, orderId: string): Promise<RoutingReceipt | undefined> => {
  const [event] = await store.readStream(routingStream(orderId));
  return event?.type === 'OrderRouted' ? (event.data as RoutingReceipt) : undefined;
};

/** One line's inputs, the order its rule gives them, and its replay against the recorded winners. */
export const explainLine = (line: LineReceipt, n: number) => {
  const replay = replayLine(line);
  const order = routingOrder(line).map((c) => c.offerId);
  const rows = line.candidates.map((c) => ({
    offer: c.offerId,
    supplier: c.supplierId,
    price: (c.price / 100).toFixed(2),
    health: c.health,
    cooldown_until: c.cooldownUntil ?? '-',
    stock: `${c.stock} ${c.stockMode}`,
    eligible: line.rule === 'own_offer' || isEligible(c, new Date(line.rankedAt)) ? 'yes' : 'no',
    rank: order.indexOf(c.offerId) + 1 || '-',
    served: line.served.find((s) => s.offerId === c.offerId)?.quantity ?? 0,
    passed_over: line.passedOver.find((p) => p.offerId === c.offerId)?.why ?? '-',
  }));
  const header = `line ${n + 1}: product ${line.productId}, quantity ${line.quantity}, rule ${line.rule}, ranked at ${line.rankedAt}`;
  const verdict = `recorded winner ${replay.recordedWinner ?? 'none'}; replayed from the inputs: ${replay.winner ?? 'none'}: ${replay.agrees ? 'the same' : 'DIFFERENT'}`;
  return { header, rows, verdict, agrees: replay.agrees };
};

/** `routing explain ORDER_ID`: re-runs the order's recorded routing from its inputs; exit 1 when it reaches another winner. */
export const routingExplain = (config: Config, orderId: string | undefined) => {
  if (!orderId) {
    console.error('usage: npm run cli -- routing explain ORDER_ID');
    return Promise.resolve(2);
  }
  return withStores(
    config,
    async ({ store }) => {
      const receipt = await receiptOf(store, orderId);
      if (!receipt) {
        console.error(`order ${orderId} has no routing receipt (unknown, or placed before receipts were recorded)`);
        return 1;
      }
      console.log(`order ${orderId} routed at ${receipt.at}`);
      let agrees = true;
      for (const [n, line] of receipt.lines.entries()) {
        const explained = explainLine(line, n);
        console.log(explained.header);
        console.table(explained.rows);
        console.log(explained.verdict);
        agrees &&= explained.agrees;
      }
      return agrees ? 0 : 1;
    },
    // a receipt is no ledger entry: the ledger's keys are not needed
    'unchecked',
  );
};
