import { Type } from 'typebox';
import { Nullable, StringEnum } from '../../http/schemas.js';
import { RegionInput } from '../legal-entities/contract.js';
import { LocationRefSchema } from '../locations/contract.js';

const employeeCount = Type.Integer({
  minimum: 0,
  maximum: 10_000_000,
  description: 'All current employees who live or work in the region; 0: none.',
});
const lastPayrollUpdate = Type.String({ format: 'date-time', description: 'When payroll last reported (PUT /v2/payroll/employees).' });

export const PayrollEmployeesReportSchema = Type.Object(
  {
    regions: Type.Array(Type.Object({ region: RegionInput, employee_count: employeeCount }, { title: 'PayrollRegionEmployees' }), {
      maxItems: 51,
      description: 'Every region with employees, each once. A region left out has no employees.',
    }),
  },
  { title: 'PayrollEmployeesReport' },
);

const PayrollLocationSchema = Type.Object(
  {
    region: LocationRefSchema,
    has_employees: Nullable(Type.Boolean()),
    employee_count: Nullable(Type.Integer({ minimum: 0 })),
    added_by: StringEnum(['api', 'payroll'] as const, {
      description: 'Who added the location: the platform (`api`) or a payroll report (`payroll`).',
    }),
  },
  { title: 'PayrollLocation' },
);

export const PayrollEmployeesSyncSchema = Type.Object(
  {
    legal_entity_id: Type.String(),
    regions: Type.Array(PayrollLocationSchema, { description: 'Every location of the legal entity after the report, in region order.' }),
    added: Type.Array(LocationRefSchema, { description: 'Locations this report added (employees where the entity had no location).' }),
    updated: Type.Array(LocationRefSchema, {
      description: 'Locations whose employee settings this report changed; empty when it confirmed the picture.',
    }),
    last_payroll_update: lastPayrollUpdate,
  },
  { title: 'PayrollEmployeesSync' },
);

export const PayrollConnectionSchema = Type.Object(
  {
    legal_entity_id: Type.String(),
    connected: Type.Boolean({ description: 'While true, payroll owns has_employees and employee_count (manual changes: 409).' }),
    last_payroll_update: Nullable(lastPayrollUpdate),
  },
  { title: 'PayrollConnection' },
);
