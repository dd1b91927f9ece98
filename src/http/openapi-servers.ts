import type { FastifyRequest } from 'fastify';

/** A host as a Host header carries it: a name or an address, with its port. Anything else is not echoed into the document. */
const HOST = /^(?:[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/** The origin an instance listens on, as a client writes it (an IPv6 address in brackets). */
export const listenOrigin = (host: string, port: number): string =>
  `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

/**
 * The API reference's `servers`: the origin the reader's request reached (behind a trusted
 * proxy, the one the proxy was asked for), so "Try it out" and copied URLs go to this
 * instance, on whatever port it listens. Paths carry `/api/v1`: a server is an origin.
 * Without a request (the document built for the linter and the client's types), or with
 * a Host header that is not a host, the configured listen address.
 */
export const openApiServers = (fallback: string, req?: FastifyRequest): { url: string; description: string }[] => {
  const host = req?.host;
  if (req && host && HOST.test(host) && (req.protocol === 'http' || req.protocol === 'https'))
    return [{ url: `${req.protocol}://${host}`, description: 'this instance, as your request reached it' }];
  return [{ url: fallback, description: 'the instance’s listen address' }];
};

/** The document with the servers of this request. */
export const withServers = <T extends object>(doc: T, fallback: string, req: FastifyRequest): T => ({
  ...doc,
  servers: openApiServers(fallback, req),
});
