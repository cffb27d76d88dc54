import { painter } from './format';
import { findingsTable, reportFindings, requirementsTable } from './report-tables';

describe('report tables', () => {
  it("reads the findings of the hub's report, leaving out what is not one", () => {
    const finding = {
      severity: 'high',
      rule: 'C12.hidden-text',
      file: 'SKILL.md',
      line: 3,
      message: 'm',
      fixHint: 'h',
    };
    expect(
      reportFindings({ findings: [finding, null, 'x', { rule: 'C1.x' }, { ...finding, file: 7, line: '3' }] }),
    ).toEqual([finding, { ...finding, file: null, line: null }]);
    expect(reportFindings(null)).toEqual([]);
    expect(reportFindings({ findings: 'none' })).toEqual([]);
  });

  it('lists findings but informational ones, with where they are, escaped', () => {
    const rows = findingsTable([
      { severity: 'info', rule: 'C5.files', file: null, line: null, message: 'fine', fixHint: '' },
      {
        severity: 'high',
        rule: 'C12.hidden-text',
        file: 'a.md',
        line: 2,
        message: 'hides \x1b[8m',
        fixHint: 'remove it',
      },
    ]).text.split('\n');
    expect(rows).toHaveLength(3);
    expect(rows[2]).toBe('high      C12.hidden-text  a.md:2  hides \\u{001B}[8m — remove it');
    expect(requirementsTable({ checksum_valid: true, signature_valid: false }, painter(false)).text).toBe(
      ['REQUIREMENT      MET', '---------------  ---', 'checksum_valid   yes', 'signature_valid  no'].join('\n'),
    );
  });
});
