import { parseArgs } from 'node:util';
import { systemClock } from '../clock.js';
import { specTimeouts } from '../outbound/supplier-timeouts.js';
import { newId } from '../ids.js';
import { certify, type CertificationReport } from '../outbound/certification.js';

export const certifyUsage = `usage: npm run cli -- certify --base-url URL --secret SECRET [--kind declared|topup] [--json]
                                [--offer-id ID] [--product-id ID] [--external-ref REF] [--price MINOR_UNITS]

  Runs the go-live certification of the supplier-hosted contract against your own server,
  before you sign up. The secret may also come from CERTIFY_SECRET (keeps it out of the
  process list). Exit 0 when every check passed, 1 when one did not, 2 on bad arguments.`;

const line = (c: CertificationReport['checks'][number]) => {
  const mark = c.outcome === 'pass' ? 'PASS' : c.outcome === 'fail' ? 'FAIL' : 'SKIP';
  const timing = c.exchanges
    .map((e) => `${e.method} ${e.path} ${e.response?.status ?? e.failure?.reason} ${e.latency_ms}/${e.timeout_ms} ms`)
    .join('; ');
  return `${mark} ${c.name}: ${c.expected}${c.detail ? `\n     ${c.detail}` : ''}${timing ? `\n     ${timing}` : ''}`;
};

/**
 * `certify`: the same checks as POST /offers/{id}/certification, from the supplier's own
 * machine. Private and loopback addresses are allowed here: the caller tests its own server.
 */
export const certifyCommand = async (
  args: string[],
  out: (text: string) => void = console.log,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> => {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        'base-url': { type: 'string' },
        secret: { type: 'string' },
        kind: { type: 'string', default: 'declared' },
        'offer-id': { type: 'string', default: 'cert-offer' },
        'product-id': { type: 'string', default: 'cert-product' },
        'external-ref': { type: 'string', default: 'CERT-SKU' },
        price: { type: 'string', default: '1000' },
        json: { type: 'boolean', default: false },
      },
      strict: true,
    }));
  } catch (error) {
    out(`${(error as Error).message}\n${certifyUsage}`);
    return 2;
  }
  const baseUrl = values['base-url'] as string | undefined;
  const secret = (values.secret as string | undefined) ?? env.CERTIFY_SECRET;
  const kind = values.kind as string;
  const price = Number(values.price);
  const problems = [
    !baseUrl && '--base-url is required',
    baseUrl && !/^https?:\/\/[^/]/.test(baseUrl) && '--base-url must be an http(s) address',
    !secret && '--secret (or CERTIFY_SECRET) is required',
    kind !== 'declared' && kind !== 'topup' && '--kind is declared or topup',
    !(Number.isInteger(price) && price > 0) && '--price is a positive integer (minor units)',
  ].filter(Boolean);
  if (problems.length > 0) {
    out(`${problems.join('\n')}\n${certifyUsage}`);
    return 2;
  }
  const report = await certify(
    {
      kind: kind as 'declared' | 'topup',
      endpoint: { offerId: values['offer-id'] as string, baseUrl: baseUrl!, secrets: [secret!] },
      productId: values['product-id'] as string,
      externalRef: values['external-ref'] as string,
      unitPrice: price,
    },
    { clock: systemClock, policy: { allowPrivate: true }, timeouts: specTimeouts, newId },
  );
  if (values.json) out(JSON.stringify(report, null, 2));
  else {
    for (const c of report.checks) out(line(c));
    out(
      `${report.passed ? 'PASSED' : 'FAILED'}: ${report.summary.passed} passed, ${report.summary.failed} failed, ${report.summary.skipped} skipped (${report.kind}, ${report.base_url})`,
    );
  }
  return report.passed ? 0 : 1;
};
