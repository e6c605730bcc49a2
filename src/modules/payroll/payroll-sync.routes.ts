import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { scopeOf, type AuthHooks } from '../../http/auth.js';
import { errorResponses } from '../../http/schemas.js';
import { V2ScopeQuerySchema } from '../../http/v2-scope.js';
import { assertV2Scope } from '../../http/v2-scope.js';
import type { Region } from '../../catalog/regions.js';
import type { PayrollSyncService } from './payroll-sync.service.js';
import { PayrollConnectionSchema, PayrollEmployeesReportSchema, PayrollEmployeesSyncSchema } from './payroll.schemas.js';
import { toPayrollConnection, type PayrollService } from './payroll.service.js';

const ref = (region: Region) => ({ id: region.id, code: region.code, name: region.name });

/** The entity-token operations of a payroll connection: the employee report and the disconnect. */
export function payrollSyncRoutes(deps: { payroll: PayrollService; sync: PayrollSyncService; auth: AuthHooks }) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    const common = { onRequest: deps.auth.bearer };
    const tags = ['Payroll'];
    const security = [{ bearer: [] }];

    r.put(
      '/v2/payroll/employees',
      {
        ...common,
        schema: {
          operationId: 'reportPayrollEmployeesV2',
          tags,
          security,
          summary: 'Report where the employees are, from payroll (the whole picture; idempotent)',
          description:
            'Once the business owner has connected payroll (POST /v2/auth/payroll), the platform reports every region with employees ' +
            'and their count. Each reported location gets `employee_count` and `has_employees` (count > 0); a region with employees and ' +
            'no location gets one (`added_by: payroll`); a location left out gets no employees (locations are never removed). Tasks are ' +
            're-planned once. The same report again changes nothing but `last_payroll_update`. 409 while payroll is not connected. ' +
            'Example body: `{"regions": [{"region": "CA", "employee_count": 12}, {"region": "NY", "employee_count": 3}]}`.',
          querystring: V2ScopeQuerySchema,
          body: PayrollEmployeesReportSchema,
          response: { 200: PayrollEmployeesSyncSchema, ...errorResponses(401, 404, 409, 422) },
        },
      },
      async (request) => {
        const scope = scopeOf(request);
        assertV2Scope(scope, request.query);
        const result = await deps.sync.reportEmployees(scope, request.body.regions);
        return {
          legal_entity_id: result.legalEntityId,
          regions: result.locations.map((l) => ({
            region: ref(l.region),
            has_employees: l.config.has_employees,
            employee_count: l.config.employee_count,
            added_by: l.addedBy,
          })),
          added: result.added.map(ref),
          updated: result.updated.map(ref),
          last_payroll_update: result.lastPayrollUpdate.toISOString(),
        };
      },
    );

    r.delete(
      '/v2/auth/payroll',
      {
        ...common,
        schema: {
          operationId: 'disconnectPayrollV2',
          tags,
          security,
          summary: 'Disconnect payroll: employee settings return to manual changes (idempotent)',
          description:
            'Locations and their settings stay as payroll left them; PUT /v2/payroll/employees answers 409 until payroll is connected again.',
          querystring: V2ScopeQuerySchema,
          response: { 200: PayrollConnectionSchema, ...errorResponses(401, 404, 422) },
        },
      },
      async (request) => {
        const scope = scopeOf(request);
        assertV2Scope(scope, request.query);
        return toPayrollConnection(await deps.payroll.disconnect(scope));
      },
    );
  };
}
