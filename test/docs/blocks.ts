import { readFileSync } from 'node:fs';

/**
 * The fenced code blocks of a Markdown document, each with what the docs check does with it.
 * A shell block (sh, bash, shell) runs in the document's terminal; any other block, or one
 * that cannot run there, says so in an HTML comment on the line before its fence:
 *
 *   <!-- docs-check: file NAME -->                 written to NAME in the terminal's folder
 *   <!-- docs-check: background until "TEXT" -->   a shell block left running (a server): the
 *                                                  next block waits until its output shows TEXT;
 *                                                  it is stopped at the document's end
 *   <!-- docs-check: skip (REASON) -->             not run, for the reason given
 *
 * A block that is neither a shell block nor marked is refused, so no snippet goes unchecked.
 */

export type Handling =
  | { kind: 'run' }
  | { kind: 'file'; name: string }
  | { kind: 'background'; until: string }
  | { kind: 'skip'; reason: string }
  | { kind: 'refused'; why: string };

export interface Block {
  /** The document as the check names it: README.md, docs/webhooks.md. */
  doc: string;
  /** 1-based, in the document's order. */
  index: number;
  /** The line of its opening fence. */
  line: number;
  lang: string;
  code: string;
  handling: Handling;
}

const SHELL = new Set(['sh', 'bash', 'shell']);
const MARKER = /^<!--\s*docs-check:\s*(.*?)\s*-->$/;

/** What a marker's text asks, or why it is not understood. */
const markerHandling = (text: string, shell: boolean): Handling => {
  const file = /^file\s+([\w.-]+)$/.exec(text);
  if (file) return { kind: 'file', name: file[1]! };
  const skip = /^skip\s+\((.+)\)$/.exec(text);
  if (skip) return { kind: 'skip', reason: skip[1]! };
  const background = /^background until "(.+)"$/.exec(text);
  if (background)
    return shell
      ? { kind: 'background', until: background[1]! }
      : { kind: 'refused', why: 'only a shell block runs in the background' };
  return { kind: 'refused', why: `a marker the check does not know: "${text}"` };
};

export const blocksOf = (doc: string, text: string): Block[] => {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,}|~{3,})\s*([\w+-]*)/.exec(lines[i]!);
    if (!open) continue;
    const fence = open[1]!;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !lines[i]!.startsWith(fence); i++) body.push(lines[i]!);
    const lang = open[2] ?? '';
    const shell = SHELL.has(lang);
    let before = start - 1;
    while (before >= 0 && lines[before]!.trim() === '') before--;
    const marker = before >= 0 ? MARKER.exec(lines[before]!.trim()) : null;
    const handling: Handling = marker
      ? markerHandling(marker[1]!, shell)
      : shell
        ? { kind: 'run' }
        : {
            kind: 'refused',
            why: `a ${lang || 'plain'} block with no docs-check marker: a shell block runs, any other needs "file NAME" or "skip (reason)"`,
          };
    blocks.push({ doc, index: blocks.length + 1, line: start + 1, lang, code: `${body.join('\n')}\n`, handling });
  }
  return blocks;
};

export const readBlocks = (root: string, doc: string): Block[] => blocksOf(doc, readFileSync(`${root}/${doc}`, 'utf8'));
