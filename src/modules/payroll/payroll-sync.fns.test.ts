import { describe, expect, it } from 'vitest';
import { employeeChanges, firstRepeatedRegion, type LocationEmployees } from './payroll-sync.fns.js';

const location = (regionId: string, hasEmployees: boolean | null, employeeCount: number | null): LocationEmployees => ({
  regionId,
  hasEmployees,
  employeeCount,
});

describe('employeeChanges', () => {
  it('sets the reported counts and adds locations where employees newly appear', () => {
    expect(
      employeeChanges(
        [location('CA', null, null)],
        [
          { regionId: 'CA', employeeCount: 12 },
          { regionId: 'NY', employeeCount: 3 },
        ],
      ),
    ).toEqual([
      { regionId: 'CA', employeeCount: 12, add: false },
      { regionId: 'NY', employeeCount: 3, add: true },
    ]);
  });

  it('a location left out of the report has no employees; one already without employees is unchanged', () => {
    const locations = [location('CA', true, 12), location('NY', true, 3), location('TX', false, 0)];
    expect(employeeChanges(locations, [{ regionId: 'CA', employeeCount: 12 }])).toEqual([{ regionId: 'NY', employeeCount: 0, add: false }]);
  });

  it('an unknown setting (null) becomes the reported one, zero included', () => {
    expect(employeeChanges([location('CA', null, null), location('NY', true, null)], [{ regionId: 'CA', employeeCount: 0 }])).toEqual([
      { regionId: 'CA', employeeCount: 0, add: false },
      { regionId: 'NY', employeeCount: 0, add: false },
    ]);
  });

  it('a reported zero adds no location, and an empty report adds none', () => {
    expect(employeeChanges([], [{ regionId: 'NY', employeeCount: 0 }])).toEqual([]);
    expect(employeeChanges([], [])).toEqual([]);
  });

  it('the same report twice changes nothing the second time', () => {
    const report = [
      { regionId: 'CA', employeeCount: 12 },
      { regionId: 'NY', employeeCount: 3 },
    ];
    const after = employeeChanges([location('CA', true, 5)], report).map((c) => location(c.regionId, c.employeeCount > 0, c.employeeCount));
    expect(after).toHaveLength(2);
    expect(employeeChanges(after, report)).toEqual([]);
  });

  it('a count change where the entity already has employees is a change', () => {
    expect(employeeChanges([location('CA', true, 12)], [{ regionId: 'CA', employeeCount: 13 }])).toEqual([
      { regionId: 'CA', employeeCount: 13, add: false },
    ]);
  });
});

describe('firstRepeatedRegion', () => {
  it('names the index of the second mention of a region', () => {
    expect(
      firstRepeatedRegion([
        { regionId: 'CA', employeeCount: 1 },
        { regionId: 'NY', employeeCount: 2 },
      ]),
    ).toBeNull();
    expect(
      firstRepeatedRegion([
        { regionId: 'CA', employeeCount: 1 },
        { regionId: 'NY', employeeCount: 2 },
        { regionId: 'CA', employeeCount: 1 },
      ]),
    ).toBe(2);
  });
});
