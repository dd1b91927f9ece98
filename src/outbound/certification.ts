import { runDeclaredChecks } from './certification-declared.js';
import {
  type CertificationDeps,
  type CertificationReport,
  CertificationRun,
  type CertificationTarget,
} from './certification-run.js';
import { runTopupChecks } from './certification-topup.js';

export type { CertificationReport, CertificationTarget, CertificationDeps } from './certification-run.js';

/** Runs the whole supplier-hosted contract of `target.kind` and answers the report. */
export const certify = async (target: CertificationTarget, deps: CertificationDeps): Promise<CertificationReport> => {
  const run = new CertificationRun(target, deps);
  if (target.kind === 'topup') await runTopupChecks(run);
  else await runDeclaredChecks(run);
  return run.report();
};
