// What other modules may use of the handbook: the payloads of its events (the event catalog composes them),
// the public paths of its links (app.ts keeps their secrets out of the logs) and its requirement's id.
import { Type } from 'typebox';

/** The requirement planning plans in each state with employees (src/catalog: the built-in handbook requirement). */
export const HANDBOOK_REQUIREMENT_ID = 'employee-handbook';

/** Where a published version's PDF is downloaded: not under /hosted (the hosted cookie's path); the query signs it. */
export const HANDBOOK_FILE_PATH = '/files/handbook/';
/** An employee's acknowledgement page: the token in the path is the credential. */
export const HANDBOOK_ACK_PATH = '/hosted/handbook/ack/';

export const HandbookPublishedEventSchema = Type.Object(
  {
    version: Type.Integer({ minimum: 1 }),
    published_at: Type.String({ format: 'date-time' }),
    regions: Type.Array(Type.String(), { description: 'Codes of the states the version covers.' }),
    policies: Type.Array(Type.String(), { description: 'Ids of the policies it includes (catalog/handbook).' }),
  },
  { title: 'HandbookPublished' },
);

export const HandbookAcknowledgedEventSchema = Type.Object(
  {
    employee_id: Type.String(),
    version: Type.Integer({ minimum: 1 }),
    acknowledged_at: Type.String({ format: 'date-time' }),
  },
  { title: 'HandbookAcknowledged' },
);
