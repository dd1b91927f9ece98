import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { ProblemCode } from './problem-codes.js';

/**
 * What the OpenAPI document says about every operation without any route saying it: the
 * common headers, problems as application/problem+json, an operationId, and the problem
 * answers the shared machinery (token check, rate limits, body parsing, validation,
 * idempotency) gives on every route it covers. Done here, from the route's method, URL,
 * config and schema, so a route added later is documented the same way with no work.
 */

const integer = { type: 'integer' };
/** Headers every answer carries (health probes aside). */
const commonHeaders = {
  'x-trace-id': { type: 'string', description: 'equals trace_id of a problem; quote it when reporting' },
  'x-ratelimit-limit': { ...integer, description: 'requests allowed per rolling 60 seconds in the tightest bucket' },
  'x-ratelimit-remaining': { ...integer, description: 'requests left in that bucket' },
  'x-ratelimit-reset': {
    ...integer,
    description: 'Unix seconds: end of the current window; on a 429, when a request passes again',
  },
};
const problemRef = { $ref: '#/components/schemas/Problem' };
/** Methods whose body the service parses (and may refuse as malformed, too large or not JSON). */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

type Input = Parameters<typeof jsonSchemaTransform>[0];
interface RouteFacts {
  method: string;
  url: string;
  config: {
    public?: boolean;
    unlimited?: boolean | ((req: never) => boolean);
    idempotent?: boolean;
    textFormats?: Record<string, string>;
  };
  schema: Record<string, unknown>;
}

/** The problems the shared machinery may answer on a route, by status. */
export const sharedProblems = ({ method, url, config, schema }: RouteFacts): Map<string, ProblemCode[]> => {
  const codes = new Map<string, ProblemCode[]>();
  const add = (status: number, code: ProblemCode) =>
    codes.set(String(status), [...(codes.get(String(status)) ?? []), code]);
  if (BODY_METHODS.has(method)) {
    add(400, 'malformed_json');
    add(413, 'payload_too_large');
    add(415, 'unsupported_media_type');
  }
  if (config.idempotent) {
    add(400, 'bad_request');
    add(409, 'idempotency_key_in_use');
    add(422, 'idempotency_key_reused');
  }
  if (!config.public) add(401, 'unauthorized');
  if (url.includes(':')) add(404, 'not_found');
  if (schema.body || schema.querystring || schema.params || url.includes(':')) add(422, 'validation_failed');
  if (config.unlimited !== true) add(429, 'rate_limited');
  return codes;
};

/** `GET /api/v1/offers/:offer_id/inventory` → `getOffersByOfferIdInventory`; operator routes start `operator…`. */
export const operationIdOf = (method: string, url: string): string => {
  const words = url
    .replace(/^\/api\/v1/, '')
    .replace(/^\/operator\/v1/, '/operator')
    .split('/')
    .filter(Boolean)
    .flatMap((segment) =>
      segment.startsWith(':') ? ['by', ...segment.slice(1).split(/[_-]/)] : segment.split(/[_-]/),
    );
  return [method.toLowerCase(), ...words.map((w) => w.charAt(0).toUpperCase() + w.slice(1))].join('');
};

export const documentOperation = (input: Input): ReturnType<typeof jsonSchemaTransform> => {
  const out = jsonSchemaTransform(input);
  const schema = out.schema as Record<string, unknown> & {
    response?: Record<string, Record<string, unknown>>;
    hide?: boolean;
  };
  if (schema.hide) return out;
  const route = input.route as unknown as { method: string | string[]; config?: RouteFacts['config'] };
  const method = String(Array.isArray(route.method) ? route.method[0] : route.method).toUpperCase();
  const facts: RouteFacts = {
    method,
    url: input.url,
    config: route.config ?? {},
    schema: input.schema as Record<string, unknown>,
  };
  schema.operationId ??= operationIdOf(method, input.url);

  const response = (schema.response ??= {});
  const shared = sharedProblems(facts);
  for (const [status, codes] of shared) response[status] ??= { description: `Problem: ${codes.join(', ')}` };
  for (const [status, declared] of Object.entries(response)) {
    const problem = Number(status) >= 400;
    const headers =
      status === '429'
        ? { ...commonHeaders, 'retry-after': { ...integer, description: 'seconds to wait' } }
        : commonHeaders;
    if (!problem) {
      const headers = { ...commonHeaders, ...(declared.headers as object | undefined) };
      const texts = status === '200' ? Object.entries(facts.config.textFormats ?? {}) : [];
      if (texts.length === 0) response[status] = { ...declared, headers };
      else {
        // the declared schema is the JSON answer's; the text formats go beside it
        const { description, headers: _own, ...json } = declared;
        response[status] = {
          ...(description !== undefined && { description }),
          headers,
          content: {
            'application/json': { schema: json },
            ...Object.fromEntries(
              texts.map(([type, about]) => [type, { schema: { type: 'string', description: about } }]),
            ),
          },
        };
      }
      continue;
    }
    const codes = shared.get(status);
    const description = codes
      ? `Problem: ${codes.join(', ')}${status === '422' || status === '409' || status === '404' ? ', or a code the operation names' : ''}`
      : 'Problem';
    response[status] = { description, headers, content: { 'application/problem+json': { schema: problemRef } } };
  }
  return out;
};

/**
 * The zod components, without the ones nothing refers to: zod emits an input and an output
 * variant of every named schema, and a linter rightly flags the variants no operation uses.
 */
export const documentObject: typeof jsonSchemaTransformObject = (input) => {
  const doc = jsonSchemaTransformObject(input) as unknown as {
    components?: { schemas?: Record<string, unknown> };
    webhooks?: Record<string, Record<string, { operationId?: string }>>;
  } & Record<string, unknown>;
  // webhooks are operations the supplier serves: named after their event (`webhookOrderPaid`)
  for (const [event, item] of Object.entries(doc.webhooks ?? {}))
    for (const op of Object.values(item)) op.operationId ??= operationIdOf('webhook', `/${event.replace(/\./g, '_')}`);
  const schemas = doc.components?.schemas;
  if (!schemas) return doc as never;
  const used = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')) {
        const name = value.slice('#/components/schemas/'.length);
        if (!used.has(name)) {
          used.add(name);
          visit(schemas[name]);
        }
      } else visit(value);
    }
  };
  visit({ ...doc, components: { ...doc.components, schemas: {} } });
  for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name];
  return doc as never;
};
