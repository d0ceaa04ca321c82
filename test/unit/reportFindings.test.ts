/**
 * The report's warnings (generator/build/findings.ts, report.ts): one line per kind, whether heard one by one,
 * added from a stage's Findings, or replayed from the stored report of an up-to-date build.
 */
import { describe, expect, it } from 'vitest';
import { BuildReport } from '../../generator/build/report.ts';
import { Findings, WARNING_EXAMPLES } from '../../generator/build/findings.ts';

const KIND = 'unit_m: rows whose unit_number is no ordinal';

function heard<F extends Findings>(into: F): F {
  into.warn('first alone');
  for (let id = 1; id <= WARNING_EXAMPLES + 2; id++) into.warn(`unit_m: unit_id ${id} is left out`, KIND);
  into.countUnreadable('unit_m', '8', false);
  return into;
}

describe('the report\'s warnings', () => {
  it('are the same heard directly or added from a stage\'s Findings', () => {
    const direct = heard(new BuildReport());
    const added = new BuildReport();
    added.add(heard(new Findings()));
    expect(added.toJSON()).toEqual({ ...direct.toJSON(), timings_ms: {} });
    expect(direct.warnings).toEqual(['first alone', `${KIND} (5 warnings): unit_m: unit_id 1 is left out / unit_m: unit_id 2 is left out / unit_m: unit_id 3 is left out / and 2 more`]);
  });

  it('of an up-to-date build are the published build\'s, and a kind heard again keeps its one line', () => {
    const published = heard(new BuildReport()).toJSON();
    const replayed = new BuildReport();
    replayed.replay(JSON.parse(JSON.stringify(published)), 10);
    expect(replayed.warnings).toEqual(published.warnings);
    expect(replayed.warningKinds).toEqual(published.warning_kinds);
    replayed.warn('unit_m: unit_id 9 is left out', KIND);
    expect(replayed.warnings).toHaveLength(2);
    expect(replayed.warnings[1]).toMatch(/\(6 warnings\).* and 3 more$/);
  });
});
