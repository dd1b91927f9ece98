import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** Debian's chromium (`apt-get install -y chromium`); browser downloads do not work here. */
export const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', process.env.CHROMIUM_PATH].find(
  (p): p is string => !!p && existsSync(p),
);
if (!CHROMIUM) console.log('console browser tests skipped: no chromium found (apt-get install -y chromium)');

export const LAUNCH = { executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] };

// CONSOLE_SCREENSHOTS=1 refreshes the README's pictures; otherwise they go to a temporary folder
export const SHOTS = process.env.CONSOLE_SCREENSHOTS
  ? path.resolve(import.meta.dirname, '../../docs/console')
  : path.join(os.tmpdir(), 'console-screenshots');

export const shot = (p: Page, name: string) => p.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core run in the page: no violation of impact serious or critical. Its default rules,
 * and WCAG 2.2's target size (24 px), which axe leaves out by default.
 */
export const expectAccessible = async (p: Page) => {
  await p.addScriptTag({ content: AXE });
  const violations = await p.evaluate(async () => {
    const result = await (globalThis as any).axe.run((globalThis as any).document, {
      resultTypes: ['violations'],
      rules: { 'target-size': { enabled: true } },
    });
    return result.violations
      .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
      .map((v: any) => `${v.id}: ${v.nodes.map((n: any) => n.target.join(' ')).join(', ')}`);
  });
  expect(violations, p.url()).toEqual([]);
};

/** The page fits a phone's width: nothing scrolls sideways but inside its own box. */
export const expectNoSideScroll = async (p: Page) => {
  const width = await p.evaluate(
    // runs in the page, whose globals the Node typings do not describe
    () =>
      (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement
        .scrollWidth,
  );
  expect(width, p.url()).toBeLessThanOrEqual(p.viewportSize()!.width);
};

/** The test-mode banner runs the page's whole width, edge to edge. */
export const expectBannerSpans = async (p: Page) => {
  const [left, width, page] = await p.evaluate(() => {
    const d = (globalThis as any).document;
    const box = d.getElementById('test-mode').getBoundingClientRect();
    return [box.left, box.width, d.documentElement.clientWidth];
  });
  expect({ left, width }, p.url()).toEqual({ left: 0, width: page });
};

/**
 * The page reads on a phone: the header under 120 px high, and no word broken across two
 * lines (a word's text takes one line box) but in a secret or a block of code, which are
 * meant to break anywhere. Tables below 600 px are stacked rows, each value after its label.
 */
export const expectPhoneReadable = async (p: Page) => {
  const seen = await p.evaluate(() => {
    const d = (globalThis as any).document;
    const broken: string[] = [];
    const walker = d.createTreeWalker(d.querySelector('main'), 4 /* NodeFilter.SHOW_TEXT */);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement.closest('pre, .secret, script, style, thead')) continue;
      for (const word of node.textContent.matchAll(/\S+/g)) {
        const range = d.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const tops = new Set(
          [...range.getClientRects()].filter((r: any) => r.width > 0).map((r: any) => Math.round(r.top)),
        );
        if (tops.size > 1)
          broken.push(
            `${word[0]} in ${node.parentElement.tagName.toLowerCase()} of ${node.parentElement.parentElement.tagName.toLowerCase()}`,
          );
      }
    }
    const unlabelled = [...d.querySelectorAll('main tbody td:not([data-label])')].filter(
      (td: any) => !td.hasAttribute('colspan'),
    ).length;
    return { header: Math.round(d.querySelector('header').getBoundingClientRect().height), broken, unlabelled };
  });
  expect(seen, p.url()).toEqual({ header: expect.any(Number), broken: [], unlabelled: 0 });
  expect(seen.header, p.url()).toBeLessThan(120);
};
