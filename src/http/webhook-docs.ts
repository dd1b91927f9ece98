import {
  LEDGER_CHECKPOINT_EVENT,
  SUBSCRIBABLE_EVENT_TYPES,
  type WebhookEventType,
} from '../domain/webhook-endpoint.js';

/** The OpenAPI 3.1 `webhooks` section: one entry per event type, the envelope and its `data`. */
const order = { $ref: '#/components/schemas/Order' };
const payout = {
  type: 'object',
  properties: { payout: { $ref: '#/components/schemas/PayoutWithEntries' } },
  required: ['payout'],
};
const dataByType: Record<WebhookEventType | typeof LEDGER_CHECKPOINT_EVENT, object> = {
  'order.created': { type: 'object', properties: { order }, required: ['order'] },
  'order.paid': { type: 'object', properties: { order }, required: ['order'] },
  'order.expired': { type: 'object', properties: { order }, required: ['order'] },
  'order.refunded': {
    type: 'object',
    properties: { order, refunded_item_ids: { type: 'array', items: { type: 'string' } } },
  },
  'order.disputed': {
    type: 'object',
    properties: {
      order,
      disputed_item_ids: { type: 'array', items: { type: 'string' } },
      reason: { type: ['string', 'null'] },
    },
  },
  'offer.deactivated': {
    type: 'object',
    properties: {
      offer_id: { type: 'string' },
      product_id: { type: 'string' },
      external_ref: { type: 'string' },
      reason: { type: 'string' },
    },
  },
  'offer.stock_low': {
    type: 'object',
    properties: {
      offer_id: { type: 'string' },
      product_id: { type: 'string' },
      external_ref: { type: 'string' },
      available: { type: 'integer' },
      threshold: { type: 'integer' },
    },
  },
  'inventory.import_completed': {
    type: 'object',
    description: 'an import of a file of keys finished: its keys are in stock (GET …/inventory?batch_id=)',
    properties: {
      import_id: { type: 'string' },
      offer_id: { type: 'string' },
      batch_id: { type: 'string' },
      added: { type: 'integer' },
      refused: {
        type: 'integer',
        description: 'lines not added; the list: GET …/inventory/imports/{import_id} as text/csv',
      },
      completed_at: { type: 'string', format: 'date-time' },
    },
  },
  'offer.repriced': {
    type: 'object',
    description: 'the pricing rule changed the offer price',
    properties: {
      offer_id: { type: 'string' },
      product_id: { type: 'string' },
      external_ref: { type: 'string' },
      price: { $ref: '#/components/schemas/Money' },
      previous_price: { $ref: '#/components/schemas/Money' },
      reason: { type: 'string', enum: ['pricing_rule'] },
    },
  },
  'offer.health_warning': {
    type: 'object',
    description:
      'one more failure brings the offer its next consequence (out of routing, a cooldown); sent once per approach (GET /offers/{offer_id}/health)',
    properties: {
      offer_id: { type: 'string' },
      product_id: { type: 'string' },
      external_ref: { type: 'string' },
      health: { type: 'integer' },
      consequence: { type: 'string', enum: ['leaves_routing', 'cooldown'] },
      failed_calls: { type: ['integer', 'null'] },
      failed_healthchecks: { type: ['integer', 'null'] },
      message: { type: 'string' },
    },
  },
  'stock.invalidated': {
    type: 'object',
    properties: {
      offer_id: { type: 'string' },
      item_id: { type: 'string' },
      previous_status: { type: 'string' },
      reason: { type: ['string', 'null'] },
    },
  },
  'payout.created': payout,
  'payout.paid': payout,
  'payout.failed': payout,
  'webhook.disabled': {
    type: 'object',
    properties: {
      webhook_id: { type: 'string' },
      url: { type: 'string' },
      reason: { type: 'string', enum: ['consecutive_failures', 'gone'] },
      consecutive_failures: { type: 'integer' },
      disabled_at: { type: 'string' },
    },
  },
  // sent daily at 00:00 UTC, only to endpoints that name it (`*` does not include it)
  // the head as of that midnight, and each witness's latest cosignature (GET /balance/cosignatures)
  'ledger.checkpoint': {
    allOf: [
      { $ref: '#/components/schemas/BalanceProof' },
      {
        type: 'object',
        required: ['cosignatures'],
        properties: { cosignatures: { type: 'array', items: { $ref: '#/components/schemas/LedgerCosignature' } } },
      },
    ],
  },
};

// a plain JSON document: typed loosely, as @fastify/swagger passes it through untouched
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- handed to @fastify/swagger as it is
export const webhookDocs: Record<string, any> = Object.fromEntries(
  SUBSCRIBABLE_EVENT_TYPES.map((type) => [
    type,
    {
      post: {
        summary: `${type} (see docs/webhooks.md)${type === LEDGER_CHECKPOINT_EVENT ? ': only to endpoints that name it' : ''}`,
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['id', 'type', 'mode', 'api_version', 'test_fire', 'created_at', 'data'],
                properties: {
                  id: { type: 'string', description: 'the dedupe key' },
                  type: { const: type },
                  mode: { enum: ['live', 'test'] },
                  api_version: { const: 'v1' },
                  test_fire: { type: 'boolean' },
                  created_at: { type: 'string' },
                  data: dataByType[type],
                },
              },
            },
          },
        },
        responses: { '200': { description: 'any 2xx within 10 s is a success' } },
      },
    },
  ]),
);
