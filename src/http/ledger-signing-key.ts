import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CHECKPOINT_FORMAT, ENTRY_FORMAT } from '../domain/ledger-chain.js';
import { type Services } from './services.js';

export const LEDGER_SIGNING_KEY_PATH = '/.well-known/svc-ledger-signing-key';

const PublishedKey = z
  .object({
    key_id: z.string().describe('the first 8 bytes of sha256 over the raw public key, hex'),
    public_key: z.string().describe('the raw 32-byte Ed25519 public key, hex'),
    public_key_pem: z.string().describe('the same key as SPKI PEM'),
    status: z
      .enum(['current', 'retired'])
      .describe(
        '`current` signs what is written now; a `retired` key signed entries and checkpoints before a rotation',
      ),
  })
  .meta({ id: 'LedgerPublicKey' });

const SigningKey = z
  .object({
    algorithm: z.literal('ed25519'),
    key_id: z.string().describe('the current key: the first 8 bytes of sha256 over the raw public key, hex'),
    public_key: z.string().describe('the current raw 32-byte Ed25519 public key, hex'),
    public_key_pem: z.string().describe('the same key as SPKI PEM'),
    keys: z
      .array(PublishedKey)
      .describe(
        'every key that signs or ever signed the ledger, the current one first: an entry or checkpoint names its key by key_id',
      ),
    entry_format: z
      .literal(ENTRY_FORMAT)
      .describe(
        "each ledger entry is signed over canonical JSON of {format, hash, key_id, prev, seq, supplier_id}: hash = sha256(prev + canonical JSON of the entry's content), seq its place, prev the head before it",
      ),
    checkpoint_format: z
      .literal(CHECKPOINT_FORMAT)
      .describe(
        "a checkpoint's `signed` text is canonical JSON (keys sorted, no whitespace) of {as_of, entries, format, head, key_id, last_entry_id, supplier_id}; `signature` is Ed25519 over its UTF-8 bytes, hex",
      ),
  })
  .meta({ id: 'LedgerSigningKey' });

/**
 * The public half of the key that signs the ledger's checkpoints, at a well-known address
 * anyone may read without a token: a supplier fetches it once and checks every checkpoint
 * it keeps (GET /api/v1/balance/proof, statements, the `ledger.checkpoint` webhook) with
 * it alone.
 */
export const registerLedgerSigningKeyRoute = (app: FastifyInstance, services: Services) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    LEDGER_SIGNING_KEY_PATH,
    {
      config: { public: true },
      schema: {
        operationId: 'getLedgerSigningKey',
        summary: "The public keys that sign your ledger's entries and checkpoints (no token needed)",
        tags: ['balance'],
        security: [],
        response: { 200: SigningKey },
      },
    },
    async (): Promise<z.infer<typeof SigningKey>> => ({
      algorithm: 'ed25519',
      key_id: services.ledgerKey.keyId,
      public_key: services.ledgerKey.publicKey,
      public_key_pem: services.ledgerKey.publicKeyPem,
      keys: [...services.ledger.keyring.published],
      entry_format: ENTRY_FORMAT,
      checkpoint_format: CHECKPOINT_FORMAT,
    }),
  );
};
