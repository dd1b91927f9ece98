import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Form } from './form-body.js';

/**
 * Every form that writes carries a token made when the page was rendered, and the writes
 * its post makes through the API use it as their Idempotency-Key: a form posted twice (a
 * double click, a browser retrying after a lost answer, a reload of the post) writes once,
 * and the second post gets the first one's answer, so it shows the same page.
 */
export const FORM_TOKEN_FIELD = '_form';

/** 192 random bits: no two rendered forms share one. */
export const newFormToken = () => randomBytes(24).toString('base64url');

const SHAPE = /^[A-Za-z0-9_-]{32}$/;

/** The posted form's token, if it has one of the right shape. */
export const formTokenOf = (form: Form | undefined): string | undefined => {
  const token = form?.[FORM_TOKEN_FIELD];
  return typeof token === 'string' && SHAPE.test(token) ? token : undefined;
};

const writesMade = new WeakMap<FastifyRequest, number>();

/**
 * The Idempotency-Key of the next API write a form's post makes: the form's token and the
 * write's place among the post's writes (a post that writes twice, writes twice again on a
 * repeat, in the same order, since each write's answer is replayed). A write without a
 * form token is a console page that forgot `csrfField`: refused loudly, never written with
 * a fresh key that would write again on every repeat.
 */
export const nextWriteKey = (req: FastifyRequest): string | undefined => {
  // a page view writes nothing: what it posts to the API is a calculation (a price simulated)
  if (req.method === 'GET') return undefined;
  const token = formTokenOf(req.body as Form | undefined);
  if (!token) throw new Error(`a console write without its form's token (${req.method} ${req.url})`);
  const n = writesMade.get(req) ?? 0;
  writesMade.set(req, n + 1);
  return `console-form:${token}:${n}`;
};
