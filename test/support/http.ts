/** A small client for the service over a real socket: every test request crosses HTTP. */
export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface ClientOptions {
  token?: string;
  headers?: Record<string, string>;
}

export const request = async <T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: ClientOptions & { body?: unknown; rawBody?: string; contentType?: string; signal?: AbortSignal } = {},
): Promise<Answer<T>> => {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
  const res = await fetch(`${baseUrl}${path}`, { method, headers, body, signal: options.signal });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
};

/** Binds a base URL and a token: `api.get('/whoami')`, `api.post('/offers', body)`. */
export const client = (baseUrl: string, token?: string) => {
  const call =
    (method: string) =>
    <T = any>(path: string, body?: unknown, options: ClientOptions = {}) =>
      request<T>(baseUrl, method, path, { token, ...options, body });
  return {
    get: <T = any>(path: string, options: ClientOptions = {}) =>
      request<T>(baseUrl, 'GET', path, { token, ...options }),
    post: call('POST'),
    put: call('PUT'),
    patch: call('PATCH'),
    delete: <T = any>(path: string, options: ClientOptions = {}) =>
      request<T>(baseUrl, 'DELETE', path, { token, ...options }),
    withToken: (other: string | undefined) => client(baseUrl, other),
  };
};

export type Client = ReturnType<typeof client>;
