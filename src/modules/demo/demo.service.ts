import type { PlatformsService } from '../platforms/contract.js';
import type { PlanningBatches } from '../planning/contract.js';
import type { SignupService } from '../legal-entities/contract.js';
import type { LocationsService } from '../locations/contract.js';
import type { DemoData, DemoExtras } from './contract.js';
import { demoApiKey, keepDemoApiKey, type DemoKeyOptions } from './demo-key.js';
import type { DemoRepository } from './demo.repository.js';
import { textPdf } from '../../lib/text-pdf.js';
import { seedDemoAutomations } from './demo-automations.js';

export const DEMO_PLATFORM_NAME = 'Statehouse Demo';
const DEMO_EXTERNAL_ID = 'demo-coffee-co';

/** What the seed works through: the services of the modules that own the demo's rows (wired by index.ts). */
export interface DemoServices {
  platforms: PlatformsService;
  signup: Pick<SignupService, 'signup' | 'activate'>;
  locations: Pick<LocationsService, 'add'>;
  planning: PlanningBatches;
  repo: DemoRepository;
}

/**
 * Demo data a newcomer can call at once: a platform with its key (see demo-key.ts: kept in the
 * data directory when `keyOptions` say so, else fresh, revoking the older ones), an active Delaware C corporation with
 * an office and employees in California and remote employees in New York, and a second
 * entity still waiting for its hosted signup. Safe to run repeatedly.
 */
export async function seedDemo(services: DemoServices, extras?: DemoExtras, keyOptions?: DemoKeyOptions): Promise<DemoData> {
  const { platforms, signup, locations, planning, repo } = services;

  const existing = (await platforms.list()).find((p) => p.name === DEMO_PLATFORM_NAME);
  let platformId: string;
  let apiKey: string;
  if (existing) {
    platformId = existing.id;
    apiKey = await demoApiKey(platforms, existing.id, keyOptions);
  } else {
    const created = await platforms.create(DEMO_PLATFORM_NAME);
    platformId = created.platform.id;
    apiKey = created.apiKey.key;
    await keepDemoApiKey(keyOptions, apiKey);
  }
  const principal = { platformId, platformName: DEMO_PLATFORM_NAME, apiKeyId: '' };

  const find = (externalId: string) => repo.findEntityByExternalId(platformId, externalId);

  let entity = await find(DEMO_EXTERNAL_ID);
  if (!entity) {
    const { entity: created } = await signup.signup(principal, {
      business_name: 'Demo Coffee Co',
      user_email: 'owner@demo-coffee.example',
      entity_type: 'c_corp',
      tax_classification: 'corp',
      incorporation_region: 'DE',
      incorporation_date: '2021-03-15',
      ein: '12-3456789',
      external_company_id: DEMO_EXTERNAL_ID,
      business_address: {
        id: null,
        address_line_1: '500 Market St',
        address_line_2: null,
        city: 'San Francisco',
        state: 'CA',
        country: 'US',
        postal_code: '94105',
      },
    });
    await signup.activate(principal, created.id);
    const scope = { platformId, legalEntityId: created.id };
    await locations.add(scope, 'CA', { has_employees: true, has_physical_location: true, employee_count: 12 });
    await locations.add(scope, 'NY', { has_employees: true, has_physical_location: false, employee_count: 3 });
    entity = { id: created.id };
  }

  let pending = await find(`${DEMO_EXTERNAL_ID}-pending`);
  if (!pending) {
    const { entity: created } = await signup.signup(principal, {
      business_name: 'Demo Bakery LLC',
      user_email: 'owner@demo-bakery.example',
      entity_type: 'llc',
      tax_classification: 'disregarded',
      incorporation_region: 'TX',
      incorporation_date: '2024-06-01',
      external_company_id: `${DEMO_EXTERNAL_ID}-pending`,
    });
    pending = { id: created.id };
  }
  // A repeated run plans the existing entities' tasks up to today.
  await planning.replanBatch([entity.id, pending.id]);
  if (extras) await seedAccountsAndMail(entity.id, extras);
  const automations =
    extras?.automations &&
    (await seedDemoAutomations({ platformId, legalEntityId: entity.id }, repo.findTaskByDefinition, extras.automations));
  return { platformId, apiKey, legalEntityId: entity.id, inactiveLegalEntityId: pending.id, ...(automations && { automations }) };
}

/**
 * The active demo entity's California EDD payroll tax account with a login (demo credentials, sealed in
 * the vault like any other) and one piece of registered-agent mail, so the accounts, logins, mail and
 * connection operations have something to show. Only when the entity has no agency account yet.
 */
async function seedAccountsAndMail(legalEntityId: string, extras: DemoExtras): Promise<void> {
  if ((await extras.accounts.listAccounts({ legalEntityId })).length > 0) return;
  const account = await extras.accounts.createAccount(legalEntityId, {
    region_code: 'CA',
    agency_id: 'ca-edd',
    name: 'Employer payroll tax account',
    data: [
      { name: 'Account number', description: 'The employer account number at the agency', value: '123-4567-8' },
      { name: 'UI rate', description: 'Unemployment insurance rate for this year' },
    ],
  });
  await extras.accounts.createLogin(legalEntityId, {
    agency_account_id: account.id,
    region_code: 'CA',
    name: 'EDD e-Services for Business',
    login_url: 'https://eddservices.edd.ca.gov/',
    is_supported: true,
    secrets: { username: 'demo-coffee-payroll', password: 'demo-only-password', totp_seed: 'JBSWY3DPEHPK3PXP' },
  });
  await extras.mail.ingest({
    legalEntityId,
    regionCode: 'CA',
    type: 'registered-agent',
    sender: 'California Secretary of State',
    subject: 'Statement of Information reminder',
    fileName: 'statement-of-information-reminder.pdf',
    bytes: textPdf([
      'California Secretary of State',
      'Statement of Information reminder (DEMO)',
      '',
      'Demo Coffee Co: your Statement of Information is due within 90 days.',
      'This document was generated by the Statehouse demo.',
    ]),
  });
}
