import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { renderMessagePage } from '../../pages/common-pages.js';
import { renderHandbookEmployees } from '../../pages/handbook-employees-page.js';
import { formOf, sendPage } from '../../http/pages.js';
import { hostedOf, requireHostedSession, type HostedContext } from '../hosted-sessions/contract.js';
import type { HostedSessionsService } from '../hosted-sessions/contract.js';
import type { HandbookEmployeesService } from './handbook-employees.service.js';
import { employeeFromForm, type FormErrors } from './handbook-forms.js';
import type { HandbookOverviewService } from './handbook-overview.service.js';
import { frameOf, notFoundAsNull } from './handbook-page-frame.js';
import type { BuilderState } from './handbook.types.js';

const EmployeeParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

type EmployeeForm = { values: Record<string, string>; errors: FormErrors };

/** Step 4 of the hosted handbook builder: add, edit and remove the employees who receive the handbook. */
export function handbookEmployeesPageRoutes(deps: {
  overview: Pick<HandbookOverviewService, 'state'>;
  employees: HandbookEmployeesService;
  sessions: Pick<HostedSessionsService, 'check'>;
  publicOrigin: string;
}) {
  return async (app: FastifyInstance) => {
    const guarded = { preHandler: requireHostedSession(deps, ['handbook']), schema: { hide: true, params: EmployeeParams } };
    const load = async (hosted: HostedContext) => deps.overview.state(hosted.scope);
    // The notice names the employee (?name=, shown escaped) so the owner sees whom the change was about.
    const noticeOf = (query: unknown) => {
      const { saved, name } = query as { saved?: string; name?: string };
      const who = typeof name === 'string' && name.trim() ? name.trim().slice(0, 200) : 'Employee';
      return saved === 'added' ? `${who} added.` : saved === 'employee' ? `${who} saved.` : saved === 'removed' ? `${who} removed.` : null;
    };
    const savedUrl = (saved: string, name: string) => `/hosted/handbook/employees?saved=${saved}&name=${encodeURIComponent(name.trim())}`;

    const employeesPage = (
      reply: FastifyReply,
      hosted: HostedContext,
      state: BuilderState,
      forms: { add?: EmployeeForm; edit?: EmployeeForm & { id: string } },
      notice?: string | null,
    ) => {
      const failed = Object.keys(forms.add?.errors ?? {}).length + Object.keys(forms.edit?.errors ?? {}).length > 0;
      return sendPage(
        reply,
        renderHandbookEmployees(frameOf(hosted, state, notice), {
          employees: state.employees,
          published: !!state.latest,
          add: forms.add ?? { values: {}, errors: {} },
          edit: forms.edit ?? null,
        }),
        { status: failed ? 422 : 200 },
      );
    };
    const notFound = (reply: FastifyReply, hosted: HostedContext) =>
      sendPage(
        reply,
        renderMessagePage({
          title: 'Employee not found',
          body: 'They may have been removed. Go back to the employee list.',
          platformName: hosted.platformName,
          brand: hosted.brand,
        }),
        { status: 404 },
      );

    app.get('/hosted/handbook/employees', { ...guarded, schema: { hide: true } }, async (request, reply) => {
      const hosted = hostedOf(request);
      return employeesPage(reply, hosted, await load(hosted), {}, noticeOf(request.query));
    });
    app.post('/hosted/handbook/employees', { ...guarded, schema: { hide: true } }, async (request, reply) => {
      const hosted = hostedOf(request);
      const { typed, employee } = employeeFromForm(formOf(request));
      const errors = await deps.employees.add(hosted.scope, employee);
      if (Object.keys(errors).length) return employeesPage(reply, hosted, await load(hosted), { add: { values: typed, errors } });
      return reply.redirect(savedUrl('added', typed.name), 303);
    });
    app.get<{ Params: { id: string } }>('/hosted/handbook/employees/:id/edit', guarded, async (request, reply) => {
      const hosted = hostedOf(request);
      const employee = await deps.employees.get(hosted.scope, request.params.id).catch(notFoundAsNull);
      if (!employee) return notFound(reply, hosted);
      return employeesPage(reply, hosted, await load(hosted), {
        edit: { id: employee.id, values: { name: employee.name, email: employee.email ?? '' }, errors: {} },
      });
    });
    app.post<{ Params: { id: string } }>('/hosted/handbook/employees/:id', guarded, async (request, reply) => {
      const hosted = hostedOf(request);
      const { typed, employee } = employeeFromForm(formOf(request));
      const errors = await deps.employees.update(hosted.scope, request.params.id, employee).catch(notFoundAsNull);
      if (errors === null) return notFound(reply, hosted);
      if (Object.keys(errors).length)
        return employeesPage(reply, hosted, await load(hosted), { edit: { id: request.params.id, values: typed, errors } });
      return reply.redirect(savedUrl('employee', typed.name), 303);
    });
    app.post<{ Params: { id: string } }>('/hosted/handbook/employees/:id/remove', guarded, async (request, reply) => {
      const hosted = hostedOf(request);
      const employee = await deps.employees.get(hosted.scope, request.params.id).catch(notFoundAsNull);
      const removed = employee && (await deps.employees.remove(hosted.scope, employee.id).then(() => true, notFoundAsNull));
      return reply.redirect(employee && removed ? savedUrl('removed', employee.name) : '/hosted/handbook/employees', 303);
    });
  };
}
