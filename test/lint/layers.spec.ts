import { createRequire } from 'node:module';
import path from 'node:path';
import { cruise, type ICruiseResult, type IForbiddenRuleType } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

/**
 * The layering of docs/architecture.md is checked, not only written down: the rules in
 * .dependency-cruiser.cjs run over src (no violation) and over a fixture with wrong imports
 * (each one named).
 */
const root = path.resolve(import.meta.dirname, '../..');
const config = createRequire(import.meta.url)(path.join(root, '.dependency-cruiser.cjs')) as {
  forbidden: IForbiddenRuleType[];
  options: object;
};

const violations = async (baseDir: string) => {
  const { output } = await cruise(
    ['src'],
    { ...config.options, baseDir, validate: true, ruleSet: { forbidden: config.forbidden } },
    undefined,
    {
      tsConfig: { fileName: path.join(root, 'tsconfig.json') },
    },
  );
  const result = output as ICruiseResult;
  return {
    cruised: result.summary.totalCruised,
    found: result.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort(),
  };
};

describe('layers', () => {
  it('src has no import against the folder table and no import cycle', async () => {
    const { cruised, found } = await violations(root);
    expect(found).toEqual([]);
    expect(cruised).toBeGreaterThan(200); // the whole of src was read, not an empty folder
  }, 240_000);

  it('a wrong import fails the check, named by its rule', async () => {
    expect((await violations(path.join(root, 'test/lint/fixtures/layers'))).found).toEqual([
      'domain-is-pure: src/domain/order.ts -> src/http/app.ts',
      'layer-commands: src/commands/place.ts -> src/http/app.ts',
      'no-cycle: src/domain/order.ts -> src/http/app.ts',
    ]);
  }, 240_000);
});
