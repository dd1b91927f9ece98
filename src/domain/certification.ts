import type { Decider } from './decider.js';

/**
 * Go-live certification results of one supplier: which fulfilment base URLs passed the
 * supplier-hosted contract, and when. A production activation of a declared (or top-up)
 * offer reads this to decide whether the offer's base URL may go live.
 */

export type CertificationKind = 'declared' | 'topup';

/** A certification is good for this long after it passed. */
export const CERTIFICATION_VALID_MS = 30 * 24 * 60 * 60_000;

export type CertificationEvent = {
  type: 'CertificationCompleted';
  data: {
    certificationId: string;
    supplierId: string;
    offerId: string;
    kind: CertificationKind;
    baseUrl: string;
    passed: boolean;
    failedChecks: string[];
    at: string;
  };
};

export type CertificationCommand = { type: 'RecordCertification'; data: CertificationEvent['data'] };

export interface CertificationRecord {
  certificationId: string;
  offerId: string;
  kind: CertificationKind;
  baseUrl: string;
  passed: boolean;
  at: string;
}

export interface CertificationState {
  records: CertificationRecord[];
}

/** Trailing slashes do not make another endpoint: the service appends paths after trimming them. */
export const sameBaseUrl = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

/** The newest passing certification of `baseUrl` for `kind` still valid at `now`, if any. */
export const validCertification = (
  state: CertificationState,
  baseUrl: string,
  kind: CertificationKind,
  now: Date,
): CertificationRecord | undefined =>
  state.records
    .filter((r) => r.passed && r.kind === kind && sameBaseUrl(r.baseUrl, baseUrl))
    .filter((r) => now.getTime() - new Date(r.at).getTime() <= CERTIFICATION_VALID_MS)
    .at(-1);

/** Only the last of each base URL and kind matters for the gate; older ones are kept for the history. */
const MAX_RECORDS = 200;

export const certificationDecider: Decider<CertificationState, CertificationCommand, CertificationEvent> = {
  initialState: { records: [] },

  evolve(state, event) {
    const { certificationId, offerId, kind, baseUrl, passed, at } = event.data;
    return { records: [...state.records, { certificationId, offerId, kind, baseUrl, passed, at }].slice(-MAX_RECORDS) };
  },

  decide(command) {
    return [{ type: 'CertificationCompleted', data: command.data }];
  },
};
