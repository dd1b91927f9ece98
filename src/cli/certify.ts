import { parseArgs } from 'node:util';
import { systemClock } from '../clock.js';
import { ConfigError, loadConfig } from '../config.js';
import { checkTarget, type TargetPolicy } from '../net/targets.js';
import { specTimeouts } from '../outbound/supplier-timeouts.js';
import { newId } from '../ids.js';
import { certify, type CertificationReport } from '../outbound/certification.js';

export const certifyUsage = `usage: npm run cli -- certify --base-url URL --secret SECRET [--kind declared|topup] [--json]
                                [--offer-id ID] [--product-id ID] [--external-ref REF] [--price MINOR_UNITS]

  Runs the go-live certification of the supplier-hosted contract against your own server,
  before you sign up. The secret may also come from CERTIFY_SECRET (keeps it out of the
  process list). The address must be public https, as the service's own calls; while you
  test a server on this machine or your network, SVC_ALLOW_PRIVATE_TARGETS=1 also allows
  http, loopback and private addresses (never link-local). Exit 0 when every check passed,
  1 when one did not, 2 on bad arguments or a refused address.`;

const PRIVATE_HINT = ' (SVC_ALLOW_PRIVATE_TARGETS=1 allows http, loopback and private addresses while testing)';

const line = (c: CertificationReport['checks'][number]) => {
  const mark = c.outcome === 'pass' ? 'PASS' : c.outcome === 'fail' ? 'FAIL' : 'SKIP';
  const timing = c.exchanges
    .map((e) => `${e.method} ${e.path} ${e.response?.status ?? e.failure?.reason} ${e.latency_ms}/${e.timeout_ms} ms`)
    .join('; ');
  return `${mark} ${c.name}: ${c.expected}${c.detail ? `\n     ${c.detail}` : ''}${timing ? `\n     ${timing}` : ''}`;
};

/**
 * The service's own target policy, from the same settings (SVC_ALLOW_PRIVATE_TARGETS, refused
 * with SVC_ENV=production): the CLI runs where a service may, and whatever it may call from
 * there, the service may not call any more than it does.
 */
const targetPolicy = (env: NodeJS.ProcessEnv): TargetPolicy | { refused: string } => {
  try {
    const { allowPrivateTargets } = loadConfig({
      SVC_ENV: env.SVC_ENV,
      SVC_ALLOW_PRIVATE_TARGETS: env.SVC_ALLOW_PRIVATE_TARGETS,
    });
    return { allowPrivate: allowPrivateTargets };
  } catch (error) {
    if (error instanceof ConfigError) return { refused: error.message };
    throw error;
  }
};

const print = (report: CertificationReport, json: boolean, out: (text: string) => void) => {
  if (json) return out(JSON.stringify(report, null, 2));
  for (const c of report.checks) out(line(c));
  out(
    `${report.passed ? 'PASSED' : 'FAILED'}: ${report.summary.passed} passed, ${report.summary.failed} failed, ${report.summary.skipped} skipped (${report.kind}, ${report.base_url})`,
  );
};

/**
 * `certify`: the same checks as POST /offers/{id}/certification, from the supplier's own
 * machine, under the service's rules for where calls may go (targets.ts, pinned.ts).
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
  const policy = targetPolicy(env);
  if ('refused' in policy) {
    out(policy.refused);
    return 2;
  }
  const target = baseUrl ? await checkTarget(baseUrl, policy) : undefined;
  const problems = [
    !baseUrl && '--base-url is required',
    target && !target.ok && `--base-url refused: ${target.reason}${policy.allowPrivate ? '' : PRIVATE_HINT}`,
    !secret && '--secret (or CERTIFY_SECRET) is required',
    kind !== 'declared' && kind !== 'topup' && '--kind is declared or topup',
    !(Number.isInteger(price) && price > 0) && '--price is a positive integer (minor units)',
  ].filter(Boolean);
  if (problems.length > 0 || !baseUrl || !secret) {
    out(`${problems.join('\n')}\n${certifyUsage}`);
    return 2;
  }
  const report = await certify(
    {
      kind: kind as 'declared' | 'topup',
      endpoint: { offerId: values['offer-id'] as string, baseUrl, secrets: [secret] },
      productId: values['product-id'] as string,
      externalRef: values['external-ref'] as string,
      unitPrice: price,
    },
    { clock: systemClock, policy, timeouts: specTimeouts, newId },
  );
  print(report, values.json === true, out);
  return report.passed ? 0 : 1;
};
