import { describe, expect, it } from 'vitest';
import { html, layout } from '../../src/http/console/html.js';
import { labelCells } from '../../src/http/console/stacked-tables.js';

describe("a table's cells labelled for a phone", () => {
  it("gives each body cell its column's heading, skipping a cell that spans columns", () => {
    const page = labelCells(
      '<table><thead><tr><th>Order</th><th class="n">Amount <small>EUR</small></th><th>When</th></tr></thead>' +
        '<tbody><tr><td><a href="/o/1">1</a></td><td class="n">2.00</td><td>today</td></tr>' +
        '<tr class="total"><td colspan="2">Total</td><td>now</td></tr></tbody></table><p>after</p>',
    );
    expect(page).toBe(
      '<table><thead><tr><th>Order</th><th class="n">Amount <small>EUR</small></th><th>When</th></tr></thead>' +
        '<tbody><tr><td data-label="Order"><a href="/o/1">1</a></td><td data-label="Amount EUR" class="n">2.00</td><td data-label="When">today</td></tr>' +
        '<tr class="total"><td colspan="2">Total</td><td data-label="When">now</td></tr></tbody></table><p>after</p>',
    );
  });

  it("labels every page's tables, whose text stays escaped: a heading or value never opens a tag", () => {
    const page = layout(
      { title: 'T' },
      html`<table><thead><tr><th>${'<td>"x"'}</th></tr></thead><tbody><tr><td>${'<td>'}</td></tr></tbody></table>`,
    );
    expect(page).toContain('<tbody><tr><td data-label="&lt;td&gt;&quot;x&quot;">&lt;td&gt;</td></tr></tbody>');
  });
});
