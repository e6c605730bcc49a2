// The handbook's wire shapes: GET /v2/handbook answers one body that both reference documents accept, and the
// two session operations (the event payloads are in contract.ts).
import { Type } from 'typebox';
import { CallbackUrlString, Nullable } from '../../http/schemas.js';

const Count = (description: string) => Type.Integer({ minimum: 0, description });

export const AcknowledgementStatsSchema = Type.Object(
  {
    signed: Count('Active employees who acknowledged the latest version.'),
    outdated: Count('Active employees who acknowledged only an earlier version.'),
    pending: Count('Active employees with an e-mail address who acknowledged no version yet.'),
    missing_emails: Count('Active employees without an e-mail address who acknowledged no version yet.'),
  },
  {
    title: 'PlatformHandbookAcknowledgementStats',
    description: 'One bucket per active employee: the four add up to the employee list. null before the first publication.',
  },
);

const summaryFields = {
  number_of_adoptable_policies: Count(
    'Policies that apply to the entity (required and optional) from its states with employees and its answers.',
  ),
  publishable: Type.Boolean({
    description:
      'Whether the owner can publish now: a state with employees, every employee count known, every question the policies need answered.',
  }),
  has_published: Type.Boolean({ description: 'Whether a version was ever published.' }),
  acknowledgement_stats: Nullable(AcknowledgementStatsSchema),
};

/** The unversioned document's summary: the same fields, with its own spelling of the count as well. */
export const HandbookSummarySchema = Type.Object(
  {
    ...summaryFields,
    number_of_adopotable_policies: Count('The same number, as the unversioned reference document spells it.'),
  },
  { title: 'PlatformHandbookSummary' },
);

export const HandbookSchema = Type.Object(
  {
    ...summaryFields,
    summary: HandbookSummarySchema,
    details: Type.Object(
      {
        handbook_automation_url: Type.String({
          description: 'A fresh single-use link to the hosted handbook builder (expires like every session link).',
        }),
      },
      { title: 'PlatformHandbookDetails' },
    ),
  },
  {
    title: 'PlatformHandbook',
    description: 'The v2 summary fields at the top level, and `summary`/`details` as the unversioned document nests them.',
  },
);

export const HandbookSessionBodySchema = Type.Object(
  {
    callback_url: CallbackUrlString({
      description: 'Where the owner returns from the builder (an allowed callback origin of the platform).',
    }),
  },
  { title: 'HostedSessionRequest' },
);

export const HandbookAutomationSessionSchema = Type.Object(
  {
    automation_url: Type.String({ description: 'Single-use URL of the hosted handbook builder.' }),
    created_at: Type.String({ format: 'date-time' }),
    expires_at: Type.String({ format: 'date-time' }),
  },
  { title: 'PlatformHandbookAutomationSessionResponse' },
);
