import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Marked, type Tokens } from 'marked';

/**
 * The project's documents (README.md and docs/*.md) as the service serves them under /docs/:
 * rendered once from the Markdown files shipped beside the code, with GitHub's heading
 * anchors, so a page can link a section (the console links "Testing webhooks on your
 * machine"). The documents are the project's own text, not a visitor's.
 */

/** The folder holding README.md and docs/, looked for upward from this file: the sources, a build, or a bundle. */
const findRoot = (): string | undefined => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, 'docs', 'webhooks.md')) && existsSync(path.join(dir, 'README.md'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
};

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
export const anchorOf = (text: string): string =>
  text
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');

const markdown = new Marked({
  gfm: true,
  renderer: {
    heading({ tokens, depth, text }) {
      return `<h${depth} id="${anchorOf(text)}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
    },
  },
  walkTokens(token) {
    // README.md links the documents as docs/x.md; here they sit beside it
    if (token.type !== 'link' && token.type !== 'image') return;
    const target = token as Tokens.Link | Tokens.Image;
    if (target.href.startsWith('docs/')) target.href = target.href.slice('docs/'.length);
  },
});

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:0 auto;padding:1rem;color:#1a1a1a}
pre{background:#f4f4f4;padding:.75rem;overflow-x:auto}code{font-size:.9em}
table{border-collapse:collapse;display:block;overflow-x:auto}td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left}
img{max-width:100%}nav a{margin-right:1rem}</style></head>
<body><nav><a href="/">Home</a><a href="/docs/">Documents</a><a href="/console">Console</a><a href="/api/v1/docs">API reference</a></nav>
${body}</body></html>`;

/** The documents' names as served: README.md first, then docs/*.md. */
export interface DocsShelf {
  names(): Promise<string[]>;
  /** The page of one document, or undefined when there is none by that name. */
  page(name: string): Promise<string | undefined>;
  /** A picture the documents show (docs/console/*.png), or undefined. */
  picture(name: string): Promise<Buffer | undefined>;
  index(): Promise<string>;
}

const DOC_NAME = /^[A-Za-z0-9-]+\.md$/;
const PICTURE_NAME = /^[a-z0-9-]+\.png$/;

/** The shelf of this installation, or undefined when it ships no documents. */
export const docsShelf = (root = findRoot()): DocsShelf | undefined => {
  if (!root) return undefined;
  const pages = new Map<string, Promise<string | undefined>>();
  const names = async () => [
    'README.md',
    ...(await readdir(path.join(root, 'docs'))).filter((f) => DOC_NAME.test(f) && f !== 'README.md').sort(),
  ];
  const fileOf = (name: string) => (name === 'README.md' ? path.join(root, name) : path.join(root, 'docs', name));
  const render = async (name: string) => {
    if (!DOC_NAME.test(name) || !(await names()).includes(name)) return undefined;
    const text = await readFile(fileOf(name), 'utf8');
    const title = /^# (.+)$/m.exec(text)?.[1] ?? name;
    return page(title, await markdown.parse(text));
  };
  return {
    names,
    page: (name) => {
      let made = pages.get(name);
      if (!made) pages.set(name, (made = render(name)));
      return made;
    },
    picture: async (name) =>
      PICTURE_NAME.test(name) ? readFile(path.join(root, 'docs', 'console', name)).catch(() => undefined) : undefined,
    index: async () =>
      page(
        'Documents',
        `<h1>Documents</h1><ul>${(await names()).map((n) => `<li><a href="/docs/${n}">${n}</a></li>`).join('')}</ul>`,
      ),
  };
};

/** The home page: where the console, the API reference and the documents are. */
export const homePage = (environment: string, docs: boolean) =>
  page(
    'Supplier marketplace',
    `<h1>Supplier marketplace</h1>
<p>This instance serves the ${environment === 'sandbox' ? 'sandbox (test mode)' : 'production environment'}.</p>
<ul>
<li><a href="/console">Console</a>: sign in with a supplier token and run your business.</li>
<li><a href="/api/v1/docs">API reference</a> (the OpenAPI document: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>; every problem code: <a href="/api/v1/errors">/api/v1/errors</a>).</li>
${docs ? '<li><a href="/docs/">Documents</a>: the quick start, webhooks, the supplier kit, operations.</li>' : ''}
</ul>`,
  );
