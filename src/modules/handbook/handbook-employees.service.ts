import type { AccessScope } from '../../http/principals.js';
import { NotFoundError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { HandbookRepository } from './handbook.repository.js';
import { repositoryOf, type HandbookDeps } from './handbook-reads.js';
import { MAX_NAME, type EmployeeInput, type Problems } from './handbook.types.js';

/** The employees who receive the handbook, as the owner lists them; problems name `name` or `email`. */
export interface HandbookEmployeesService {
  add(scope: AccessScope, employee: EmployeeInput): Promise<Problems>;
  update(scope: AccessScope, employeeId: string, employee: EmployeeInput): Promise<Problems>;
  /** Removed employees leave the list and the counts; their acknowledgements stay on record, their links stop working. */
  remove(scope: AccessScope, employeeId: string): Promise<void>;
  /** An active employee (NotFoundError otherwise). */
  get(scope: AccessScope, employeeId: string): Promise<{ id: string; name: string; email: string | null }>;
}

const MAX_EMAIL = 254;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Name required, e-mail address optional but well formed. */
export function employeeProblems(employee: EmployeeInput): Problems {
  const problems: Problems = {};
  if (!employee.name.trim()) problems.name = "Enter the employee's full name.";
  else if (employee.name.length > MAX_NAME) problems.name = `Use at most ${MAX_NAME} characters.`;
  if (employee.email !== null && (employee.email.length > MAX_EMAIL || !EMAIL.test(employee.email)))
    problems.email = 'Enter an e-mail address like name@example.com, or leave it empty.';
  return problems;
}

export function createHandbookEmployeesService(
  deps: Pick<HandbookDeps, 'db' | 'planning' | 'links' | 'now' | 'repositoryFor'>,
): HandbookEmployeesService {
  const repositoryFor = repositoryOf(deps);

  /** Two active employees with one address would get each other's mail: refuse it, keeping what was typed. */
  async function duplicateEmail(
    repo: HandbookRepository,
    legalEntityId: string,
    email: string | null,
    exceptId: string | null,
  ): Promise<Problems> {
    if (!email) return {};
    const taken = (await repo.findEmployees(legalEntityId)).find(
      (e) => e.id !== exceptId && e.email?.toLowerCase() === email.toLowerCase(),
    );
    return taken ? { email: `${taken.name} already has this e-mail address. Enter another one, or leave it empty.` } : {};
  }

  return {
    async add(scope, employee) {
      const problems = employeeProblems(employee);
      if (Object.keys(problems).length) return problems;
      // Under the entity's planning lock, which publish holds too: an employee added while a version is being
      // published gets the link of the version that commits, and two adds of one address cannot both pass.
      const { value } = await deps.planning.change<Problems>([scope.legalEntityId], async (trx) => {
        const repo = repositoryFor(trx);
        const duplicate = await duplicateEmail(repo, scope.legalEntityId, employee.email, null);
        if (Object.keys(duplicate).length) return { value: duplicate, replan: false };
        const id = newId('emp');
        await repo.insertEmployee(scope.legalEntityId, { id, name: employee.name, email: employee.email });
        // Published already: the new employee gets a link to the latest version at once.
        const latest = await repo.findLatestVersion(scope.legalEntityId);
        if (latest)
          await repo.insertAckLinks(scope.legalEntityId, [
            { ...(await deps.links.ackLink(scope.legalEntityId, id, latest.id)), employeeId: id, versionId: latest.id },
          ]);
        return { value: {}, replan: false };
      });
      return value;
    },

    async update(scope, employeeId, employee) {
      const problems = employeeProblems(employee);
      const repo = repositoryFor(deps.db);
      Object.assign(problems, problems.email ? {} : await duplicateEmail(repo, scope.legalEntityId, employee.email, employeeId));
      if (Object.keys(problems).length) return problems;
      if ((await repo.updateEmployee(scope.legalEntityId, employeeId, { name: employee.name, email: employee.email })) === 0)
        throw new NotFoundError(`Employee '${employeeId}' not found`);
      return {};
    },

    async remove(scope, employeeId) {
      if ((await repositoryFor(deps.db).removeEmployee(scope.legalEntityId, employeeId, deps.now())) === 0)
        throw new NotFoundError(`Employee '${employeeId}' not found`);
    },

    async get(scope, employeeId) {
      const employee = await repositoryFor(deps.db).findEmployee(scope.legalEntityId, employeeId);
      if (!employee || employee.removed_at) throw new NotFoundError(`Employee '${employeeId}' not found`);
      return employee;
    },
  };
}
