/**
 * Every table cell labelled with its column's heading (`data-label`), which the console's
 * style shows before the value when a table's rows stack on a phone (below 600 px). Done once
 * over a page's markup, so that no page names its columns twice. The markup is the console's
 * own, built by `html` (html.ts): any text it holds is escaped, so `<t` always starts a tag.
 */
export const labelCells = (page: string): string =>
  page.replace(/<table\b[^>]*>[\s\S]*?<\/table>/g, (table) => {
    const head = /<thead>([\s\S]*?)<\/thead>/.exec(table);
    if (!head) return table;
    const labels = [...head[1]!.matchAll(/<th\b[^>]*>([\s\S]*?)<\/th>/g)].map(([, inner]) =>
      inner!.replace(/<[^>]*>/g, '').trim(),
    );
    return table.replace(/<tbody>[\s\S]*?<\/tbody>/, (body) =>
      body.replace(/<tr\b[^>]*>[\s\S]*?<\/tr>/g, (row) => {
        let column = 0;
        return row.replace(/<td\b([^>]*)>/g, (_, attributes: string) => {
          const span = Number(/colspan="(\d+)"/.exec(attributes)?.[1] ?? 1);
          const label = span === 1 ? labels[column] : undefined;
          column += span;
          return label ? `<td data-label="${label}"${attributes}>` : `<td${attributes}>`;
        });
      }),
    );
  });
