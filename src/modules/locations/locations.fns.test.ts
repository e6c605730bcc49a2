import { describe, expect, it } from 'vitest';
import { applyConfigChange, changesEmployees, EMPTY_CONFIG, type LocationConfigState } from './locations.fns.js';

const state = (s: Partial<LocationConfigState>): LocationConfigState => ({ ...EMPTY_CONFIG, ...s });

describe('applyConfigChange', () => {
  it('leaves absent keys alone', () => {
    expect(applyConfigChange(state({ has_employees: true, employee_count: 5 }), { has_physical_location: true })).toEqual(
      state({ has_employees: true, employee_count: 5, has_physical_location: true }),
    );
  });

  it('derives has_employees from a count', () => {
    expect(applyConfigChange(EMPTY_CONFIG, { employee_count: 3 })).toEqual(state({ has_employees: true, employee_count: 3 }));
    expect(applyConfigChange(state({ has_employees: true }), { employee_count: 0 })).toEqual(
      state({ has_employees: false, employee_count: 0 }),
    );
  });

  it('a null count makes the count unknown but keeps has_employees', () => {
    expect(applyConfigChange(state({ has_employees: true, employee_count: 4 }), { employee_count: null })).toEqual(
      state({ has_employees: true }),
    );
  });

  it('has_employees false means zero employees; true turns a known zero into unknown', () => {
    expect(applyConfigChange(state({ has_employees: true, employee_count: 9 }), { has_employees: false })).toEqual(
      state({ has_employees: false, employee_count: 0 }),
    );
    expect(applyConfigChange(state({ has_employees: false, employee_count: 0 }), { has_employees: true })).toEqual(
      state({ has_employees: true }),
    );
    expect(applyConfigChange(state({ has_employees: true, employee_count: 9 }), { has_employees: true })).toEqual(
      state({ has_employees: true, employee_count: 9 }),
    );
    expect(applyConfigChange(state({ has_employees: true, employee_count: 9 }), { has_employees: null })).toEqual(EMPTY_CONFIG);
  });

  it('reports contradictions', () => {
    expect(applyConfigChange(EMPTY_CONFIG, { has_employees: false, employee_count: 2 })).toEqual({
      field: 'employee_count',
      message: 'employee_count must be 0 when has_employees is false',
    });
    expect(applyConfigChange(EMPTY_CONFIG, { has_employees: true, employee_count: 0 })).toMatchObject({ field: 'employee_count' });
    expect(applyConfigChange(EMPTY_CONFIG, { has_employees: true, employee_count: 2 })).toEqual(
      state({ has_employees: true, employee_count: 2 }),
    );
  });
});

describe('changesEmployees', () => {
  it('is true only when the employee settings differ', () => {
    expect(changesEmployees(state({ has_employees: true }), state({ has_employees: true, has_physical_location: false }))).toBe(false);
    expect(changesEmployees(state({ has_employees: true }), state({ has_employees: false, employee_count: 0 }))).toBe(true);
    expect(changesEmployees(state({ has_employees: true, employee_count: 2 }), state({ has_employees: true, employee_count: 3 }))).toBe(
      true,
    );
  });
});
