import type { Catalog } from '../../catalog/catalog.js';
import { REGIONS } from '../../catalog/regions.js';
import type { RequirementSheet } from '../../pages/operator-automation-page.js';
import { statusLabel } from '../../pages/operator-queue-page.js';
import type { PlanningExplainer } from '../planning/contract.js';
import {
  AUTOMATION_STATUSES,
  FINAL_AUTOMATION_STATUSES,
  type AutomationQueueItem,
  type AutomationsService,
} from '../automations/contract.js';

/** What the back office and the operator API call of the automations service (src/modules/automations). */
export type OperatorAutomations = Pick<
  AutomationsService,
  'queue' | 'get' | 'revealInput' | 'claim' | 'complete' | 'requestCustomerResponse' | 'cancel'
>;

/** Whether an operator can act on it: live, and with a person (not being filed by a connector). */
export const isOpen = (item: Pick<AutomationQueueItem, 'status' | 'performer'>) =>
  !FINAL_AUTOMATION_STATUSES.includes(item.status) && item.performer === 'operator';

/** The catalog's side of an automation: the agency and its links, the input fields and the outputs to record. */
export function requirementSheet(catalog: Pick<Catalog, 'requirement'>, requirementId: string): RequirementSheet | null {
  const found = catalog.requirement(requirementId);
  const automation = found?.definition.resolutions.automation;
  if (!found || !automation) return null;
  const account = automation.outputs.agency_account;
  return {
    summary: found.definition.summary,
    agency: { name: found.agency.name, website: found.agency.website },
    resources: found.definition.resources,
    fields: automation.fields.map((f) => ({ name: f.name, label: f.label })),
    outputs: {
      account: account
        ? {
            name: account.name,
            data: account.data.map((d) => ({
              name: d.name,
              required: d.kind === 'identifier',
              ...(d.description && { description: d.description }),
            })),
          }
        : null,
      login: automation.outputs.login,
      documentTitle: automation.outputs.document.title,
      dates: automation.outputs.dates,
    },
  };
}

/** Why the requirement applies to the entity today, in planning's words (as `statehouse catalog explain` says it). */
export async function whyItApplies(
  planning: PlanningExplainer,
  item: Pick<AutomationQueueItem, 'legalEntityId' | 'region' | 'requirementId'>,
): Promise<string[]> {
  const { regions } = await planning.explain(item.legalEntityId);
  const requirement = regions.find((r) => r.regionCode === item.region)?.requirements.find((r) => r.id === item.requirementId);
  return requirement?.applies ? requirement.reasons.map((m) => m.reason) : [];
}

/** The choices of the queue's filters: every state, the catalog's agencies (of the chosen state, else all), statuses, platforms. */
export function filterChoices(catalog: Pick<Catalog, 'regions'>, region: string | undefined, platforms: { id: string; name: string }[]) {
  const regions = REGIONS.filter((r) => catalog.regions.has(r.code)).map((r) => [r.code, `${r.name} (${r.code})`] as const);
  const agencies = [...catalog.regions.values()]
    .filter((r) => !region || r.region.code === region)
    .flatMap((r) => [...r.agencies.values()].map((a) => [a.id, `${a.name} (${r.region.code})`] as const));
  return {
    regions,
    agencies,
    statuses: AUTOMATION_STATUSES.map((s) => [s, statusLabel(s)] as const),
    platforms: platforms.map((p) => [p.id, p.name] as const),
  };
}
