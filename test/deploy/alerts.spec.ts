import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/**
 * The alert rules that ship in deploy/prometheus, checked and unit-tested by `promtool`
 * (Debian's prometheus package; .ci/run installs it): each alert has series that fire it
 * and series that do not (alerts.test.yml).
 */
const run = promisify(execFile);
const dir = path.resolve(import.meta.dirname, '../../deploy/prometheus');
const promtool = await run('promtool', ['--version']).then(
  () => true,
  () => false,
);
if (!promtool) console.log('alert rules not tested: no promtool (Debian package prometheus)');

describe.skipIf(!promtool)('the alert rules in deploy/prometheus', () => {
  it('are valid rules', async () => {
    const { stdout } = await run('promtool', ['check', 'rules', 'alerts.yml'], { cwd: dir });
    expect(stdout).toContain('SUCCESS: 8 rules found');
  });

  it('fire on what pages an operator, and only on that (promtool test rules)', async () => {
    const { stdout } = await run('promtool', ['test', 'rules', 'alerts.test.yml'], { cwd: dir });
    expect(stdout).toContain('SUCCESS');
  });

  it('each have a case that fires them and one that does not', async () => {
    const { readFile } = await import('node:fs/promises');
    const { parse } = await import('yaml');
    const rules = parse(await readFile(path.join(dir, 'alerts.yml'), 'utf8')) as {
      groups: { rules: { alert: string }[] }[];
    };
    const tests = parse(await readFile(path.join(dir, 'alerts.test.yml'), 'utf8')) as {
      tests: { alert_rule_test: { alertname: string; exp_alerts: unknown[] }[] }[];
    };
    const cases = tests.tests.flatMap((t) => t.alert_rule_test);
    for (const { alert } of rules.groups.flatMap((g) => g.rules)) {
      expect(
        cases.some((c) => c.alertname === alert && c.exp_alerts.length > 0),
        `${alert} fires`,
      ).toBe(true);
      expect(
        cases.some((c) => c.alertname === alert && c.exp_alerts.length === 0),
        `${alert} stays quiet`,
      ).toBe(true);
    }
  });
});
