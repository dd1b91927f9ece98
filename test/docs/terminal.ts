import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Block } from './blocks.js';

/**
 * One document's blocks run as a person runs them in one terminal: one bash for the whole
 * document, so variables and the folder carry from block to block. The terminal stops at the
 * first failing command (`set -euo pipefail`: a non-zero exit, an uncaught error, an unset
 * variable); curl fails on an HTTP answer of 400 or more (`--fail-with-body`, its body still
 * shown); and a block after which a variable holds `undefined` or `null` (an id read from an
 * answer that had none) fails too. Servers a block starts in the background are stopped at
 * the document's end, and one that ended by itself before then fails its block.
 */

export interface Terminal {
  /** The folder the terminal starts in. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Where the blocks are written to be run, and the background blocks' output kept. */
  scratch: string;
  /** Which run this is (1 or 2), for the failure's words. */
  run: number;
  /** How long one block may take. */
  blockTimeoutMs?: number;
  /** More to tell with a failure (what the sandbox logged). */
  context?: () => string;
}

export class SnippetFailed extends Error {}

const PRELUDE = `set -euo pipefail -m
curl() { command curl --fail-with-body "$@"; }
`;
// after each block: a variable that says an id was missing
const UNDEFINED_CHECK = `for __v in $(compgen -v); do case "\${!__v-}" in undefined|null|*/undefined|*/undefined/*) echo "undefined $__v" >&3;; esac; done
`;

const tail = (text: string, n = 4000) => (text.length > n ? `…${text.slice(-n)}` : text);

const groupAlive = (pgid: number) => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs the document's blocks in order; rejects with a SnippetFailed naming the document, the block and the run. */
export const runDocument = async (blocks: readonly Block[], t: Terminal): Promise<void> => {
  const shell = spawn('bash', ['--noprofile', '--norc'], {
    cwd: t.cwd,
    env: t.env,
    stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let signals = '';
  shell.stdout.on('data', (c) => (out += String(c)));
  shell.stderr.on('data', (c) => (out += String(c)));
  shell.stdio[3]!.on('data', (c) => (signals += String(c)));
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) =>
    shell.on('exit', (code, signal) => {
      exitCode = code ?? (signal ? 128 : 1);
      resolve();
    }),
  );
  // a terminal that stopped takes nothing more: its failure is told by its exit
  shell.stdin.on('error', () => undefined);
  const send = (text: string) => shell.stdin.write(text);
  const backgrounds: { block: Block; pgid: number; log: string }[] = [];
  const where = (b: Block) => `${b.doc} block ${b.index} (line ${b.line}), run ${t.run}`;
  const fail = (b: Block, why: string, since: number, extra = ''): never => {
    throw new SnippetFailed(
      `${where(b)}: ${why}\n--- the block ---\n${b.code}--- its output ---\n${tail(out.slice(since))}${extra}${t.context?.() ?? ''}`,
    );
  };
  /** Waits for a line `<word> <index> …` from the shell; undefined when the shell ended first. */
  const signal = async (word: string, b: Block, since: number) => {
    const deadline = Date.now() + (t.blockTimeoutMs ?? 240_000);
    const pattern = new RegExp(`^${word} ${b.index}(?: (.*))?$`, 'm');
    for (;;) {
      const m = pattern.exec(signals);
      if (m) return m[1] ?? '';
      if (exitCode !== undefined) return fail(b, `the terminal stopped with exit code ${exitCode}`, since);
      if (Date.now() > deadline) return fail(b, `no end within ${(t.blockTimeoutMs ?? 240_000) / 1000} s`, since);
      await sleep(25);
    }
  };

  try {
    send(PRELUDE);
    for (const b of blocks) {
      const since = out.length;
      const t0 = performance.now();
      const file = path.join(t.scratch, `${b.doc.replace(/\W/g, '_')}-${b.index}-run${t.run}`);
      const h = b.handling;
      if (h.kind === 'skip') continue;
      if (h.kind === 'refused') return fail(b, `refused: ${h.why}`, since);
      await writeFile(file, b.code);
      if (h.kind === 'file') {
        send(`cp '${file}' '${h.name}'; echo "done ${b.index}" >&3\n`);
        await signal('done', b, since);
      } else if (h.kind === 'run') {
        send(
          `source '${file}' </dev/null\n${UNDEFINED_CHECK.replaceAll('"undefined ', `"undefined ${b.index} `)}echo "done ${b.index}" >&3\n`,
        );
        await signal('done', b, since);
        const missing = [...signals.matchAll(new RegExp(`^undefined ${b.index} (\\S+)$`, 'gm'))].map((m) => m[1]);
        if (missing.length > 0)
          fail(b, `${missing.join(', ')} holds undefined or null: an id the snippet read was not there`, since);
      } else if (h.kind === 'background') {
        const log = `${file}.log`;
        send(`( source '${file}' ) </dev/null >'${log}' 2>&1 &\necho "background ${b.index} $!" >&3\n`);
        const pgid = Number(await signal('background', b, since));
        backgrounds.push({ block: b, pgid, log });
        const deadline = Date.now() + (t.blockTimeoutMs ?? 240_000);
        for (;;) {
          const logged = await readFile(log, 'utf8').catch(() => '');
          if (logged.includes(h.until)) break;
          if (!groupAlive(pgid) || Date.now() > deadline)
            fail(b, `it never printed "${h.until}"`, since, `\n--- its own output ---\n${tail(logged)}`);
          await sleep(50);
        }
      }
      if (process.env.DOCS_CHECK_TIMES) process.stderr.write(`${where(b)}: ${Math.round(performance.now() - t0)} ms\n`);
    }
    for (const bg of backgrounds)
      if (!groupAlive(bg.pgid))
        fail(
          bg.block,
          'it ended before its document did',
          0,
          `\n--- its own output ---\n${tail(await readFile(bg.log, 'utf8'))}`,
        );
  } finally {
    // the servers stop as Ctrl-C stops them, then the terminal closes
    for (const bg of backgrounds) if (groupAlive(bg.pgid)) process.kill(-bg.pgid, 'SIGTERM');
    for (let waited = 0; backgrounds.some((bg) => groupAlive(bg.pgid)) && waited < 15_000; waited += 100)
      await sleep(100);
    for (const bg of backgrounds) if (groupAlive(bg.pgid)) process.kill(-bg.pgid, 'SIGKILL');
    shell.stdin.end('exit 0\n');
    await exited;
  }
};
