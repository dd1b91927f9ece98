import { startSupplierKit } from '../sdk/kit/index.js';
import type { StockMap } from '../sdk/kit/index.js';

/**
 * `npm run supplier-kit`: the reference supplier on PORT (default 8090).
 *   KIT_SECRETS              fulfilment secrets, comma separated (the offer's `svcsec_…`; two during a rotation)
 *   KIT_STOCK_FILE           optional JSON stock file `{"stock": {"<external_ref>": ["KEY", …]}}`, kept up to date
 *   KIT_OFFER_ID             optional: refuse calls for any other offer
 *   KIT_ALLOCATION_DELAY_MS  optional: items become ready this long after POST /orders (default 0)
 *   HOST                     default 127.0.0.1
 */

const demoStock = (): StockMap => ({
  '*': Array.from({ length: 100 }, (_, i) => `DEMO-${String(i + 1).padStart(4, '0')}-KEY`),
});

const main = async () => {
  const secrets = (process.env.KIT_SECRETS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (secrets.length === 0) {
    console.error(
      "KIT_SECRETS is not set: give the offer's fulfilment secret (svcsec_…), comma separated during a rotation",
    );
    process.exit(2);
  }
  const port = process.env.PORT === undefined || process.env.PORT === '' ? 8090 : Number(process.env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`PORT ${process.env.PORT} is not a port number`);
    process.exit(2);
  }
  const delay = process.env.KIT_ALLOCATION_DELAY_MS;
  const kit = await startSupplierKit({
    secrets,
    port,
    host: process.env.HOST || '127.0.0.1',
    stock: process.env.KIT_STOCK_FILE || demoStock(),
    ...(process.env.KIT_OFFER_ID ? { offerId: process.env.KIT_OFFER_ID } : {}),
    ...(delay ? { allocationDelayMs: Number(delay) } : {}),
    onRequest: (r) =>
      console.log(`${new Date(r.at).toISOString()} ${r.method} ${r.path} ${r.status} signature=${r.signature}`),
  });
  console.log(`supplier kit listening, base_url=${kit.url}`);
  console.log(
    `stock: ${process.env.KIT_STOCK_FILE ? `file ${process.env.KIT_STOCK_FILE}` : 'demo (100 text keys for any external_ref, in memory)'}`,
  );
  const stop = () => {
    void kit.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
};

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
