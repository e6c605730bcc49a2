// What task operations take: the list queries, the path parameters and the request bodies (the task records they
// answer with are tasks.schemas.ts).
import { Type } from 'typebox';
import { BoundedString, DateString, Nullable, StringEnum } from '../../http/schemas.js';
import { TASK_CATEGORIES, TASK_TAGS } from '../../catalog/catalog-vocabulary.js';
import { RegionInput } from '../legal-entities/contract.js';
import { ACCOUNT_TASK_TAGS, AccountTaskStatus, V2_TASK_STATUSES } from './tasks.schemas.js';

const TagEnum = StringEnum(ACCOUNT_TASK_TAGS, { title: 'AccountTaskTag' });

export const ListTasksQuerySchema = Type.Object({
  definition_id: Type.Optional(Nullable(BoundedString(80))),
  start_date: Type.Optional(Nullable(DateString({ description: 'Keep tasks due on or after this date.' }))),
  end_date: Type.Optional(Nullable(DateString({ description: 'Keep tasks due on or before this date.' }))),
  include_managed: Type.Optional(Nullable(Type.Boolean({ description: 'Include tasks a managed provider handles (none today).' }))),
  status: Type.Optional(Nullable(Type.Array(AccountTaskStatus, { maxItems: 10, description: 'Repeat once per status wanted.' }))),
  tags: Type.Optional(Nullable(Type.Array(TagEnum, { maxItems: 30, description: 'Tasks with at least one of these tags.' }))),
});

export const ListLocationTasksQuerySchema = Type.Object({
  definition_id: ListTasksQuerySchema.properties.definition_id,
  start_date: ListTasksQuerySchema.properties.start_date,
  end_date: ListTasksQuerySchema.properties.end_date,
  include_managed: ListTasksQuerySchema.properties.include_managed,
  status: ListTasksQuerySchema.properties.status,
});

export const ListTasksV2QuerySchema = Type.Object({
  region: Type.Optional(Nullable(RegionInput)),
  start_date: ListTasksQuerySchema.properties.start_date,
  end_date: ListTasksQuerySchema.properties.end_date,
  type: Type.Optional(Nullable(StringEnum(['requirement', 'question'] as const))),
  statuses: Type.Optional(Nullable(Type.Array(StringEnum(V2_TASK_STATUSES), { maxItems: 10 }))),
  tags: Type.Optional(Nullable(Type.Array(StringEnum(TASK_TAGS), { maxItems: 30 }))),
  categories: Type.Optional(Nullable(Type.Array(StringEnum(TASK_CATEGORIES), { maxItems: 10 }))),
  definition_id: ListTasksQuerySchema.properties.definition_id,
  include_managed: Type.Optional(Type.Boolean({ default: false })),
  // No upper bound of our own (the reference has none): the filtered list is read whole and cached, so a page of
  // 10,000 costs what a page of 50 does (docs/decisions/0078-paging-and-trailing-slashes.md).
  page_size: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: Number.MAX_SAFE_INTEGER,
      default: 50,
      description: 'Tasks per page (default 50); any size is served.',
    }),
  ),
  page_num: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 1 })),
  legal_entity_public_id: Type.Optional(Nullable(BoundedString(64))),
  user_or_platform_public_id: Type.Optional(Nullable(BoundedString(64))),
  platform_public_id: Type.Optional(Nullable(BoundedString(64))),
});

export const TaskIdParamsSchema = Type.Object({ task_id: BoundedString(64) });
export const QuestionIdParamsSchema = Type.Object({ question_task_id: BoundedString(64) });
export const UpdateTaskStatusSchema = Type.Object({ status: AccountTaskStatus }, { title: 'AccountTaskUpdateStatus' });
export const UpdateTaskStatusV2Schema = Type.Object(
  { status: StringEnum(['todo', 'done'] as const, { title: 'PlatformTaskStatusUpdate' }) },
  { title: 'PlatformTaskUpdate' },
);
export const AnswerQuestionSchema = Type.Object(
  {
    answer: Type.Union([Type.Boolean(), Type.Integer(), Type.String({ format: 'date' })], {
      description: 'true/false, a whole number, or a date (YYYY-MM-DD), as the question asks.',
    }),
  },
  { title: 'PlatformQuestionTaskUpdate' },
);
