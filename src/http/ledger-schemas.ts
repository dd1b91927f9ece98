import { z } from 'zod';
import { Timestamp } from '../resources/values.js';

/** The ledger's signed heads and cosignatures, as the balance routes, the witnesses' and the webhook document describe them. */

const HEX64 = /^[0-9a-f]{64}$/;

export const Checkpoint = z
  .object({
    algorithm: z.literal('ed25519'),
    key_id: z.string().describe('the signing key: GET /.well-known/svc-ledger-signing-key'),
    signed: z
      .string()
      .describe(
        'the exact signed text (svc-ledger-checkpoint/2): canonical JSON (keys sorted, no whitespace) of {as_of, as_of_head, as_of_last_entry_id, as_of_root_hash, as_of_tree_size, format, head, key_id, last_entry_id, root_hash, signed_at, supplier_id, tree_size}: the ledger when signed (tree_size entries, their RFC 9162 root_hash, the hash chain head) and the first as_of_tree_size of them, posted by as_of',
      ),
    signature: z.string().describe('Ed25519 over the UTF-8 bytes of `signed`, hex (64 bytes)'),
  })
  .describe(
    "the ledger's head signed by the service: keep it to prove later that the history it covers was not rewritten (verifyConsistency in the client package)",
  )
  .meta({ id: 'LedgerCheckpoint' });

export const Tree = z
  .object({
    size: z.number().int().describe('the entries of the ledger when the head was signed'),
    root_hash: z.string().describe('RFC 9162 Merkle root over their signed texts, hex'),
    head: z.string().describe('the hash chain head after them'),
    last_entry_id: z.string().nullable(),
    last_entry_at: Timestamp.nullable(),
  })
  .meta({ id: 'LedgerTree' });

export const Proof = z
  .object({
    supplier_id: z.string(),
    as_of: Timestamp.describe('the moment viewed: the head, entries and root_hash beside it are the ledger as of then'),
    signed_at: Timestamp.describe('when the service signed: `tree` is the ledger then'),
    algorithm: z
      .literal('sha256')
      .describe('head = sha256(previous head + canonical JSON of the entry), from 64 zeros'),
    head: z.string().describe('hex; 64 zeros before the first entry'),
    entries: z.number().int().describe('how many ledger entries the head covers'),
    last_entry_id: z.string().nullable(),
    last_entry_at: Timestamp.nullable(),
    root_hash: z.string().describe('RFC 9162 Merkle root over those entries, hex'),
    tree: Tree,
    checkpoint: Checkpoint,
  })
  .meta({ id: 'BalanceProof' });

export const CosignatureSchema = z
  .object({
    witness_key: z.string().regex(HEX64).describe("the witness's raw 32-byte Ed25519 public key, hex"),
    witness_key_id: z.string().describe('the first 8 bytes of sha256 over witness_key, hex'),
    cosigned_at: z.iso.datetime().describe('when the witness cosigned, as toISOString writes it (its own clock)'),
    checkpoint: Checkpoint.describe("the service's signed head the witness cosigns, as it was handed out"),
    signature: z
      .string()
      .regex(/^[0-9a-f]{128}$/)
      .describe(
        'Ed25519 by witness_key over "svc-ledger-cosignature/1\\n" + cosigned_at + "\\n" + checkpoint.signed, hex',
      ),
  })
  .meta({ id: 'LedgerCosignature' });
