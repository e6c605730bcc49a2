import { Type, type Static } from 'typebox';
import { BoundedString, Nullable } from '../../http/schemas.js';
import { RegionInput } from '../legal-entities/contract.js';

export const LocationRefSchema = Type.Object(
  { id: Type.String({ description: 'Fixed location id (same for every legal entity).' }), code: Type.String(), name: Type.String() },
  { title: 'LocationRef' },
);

const hasEmployees = Nullable(
  Type.Boolean({ description: 'Whether employees live or work in the location. Kept in sync by payroll once it is connected.' }),
);
const hasPhysicalLocation = Nullable(
  Type.Boolean({ description: 'Whether the entity has a physical presence (such as an office) in the location.' }),
);
const employeeCount = Nullable(
  Type.Integer({ minimum: 0, maximum: 10_000_000, description: 'Current full-time employees in the location.' }),
);

export const LocationConfigInputSchema = Type.Object(
  {
    has_employees: Type.Optional(hasEmployees),
    has_physical_location: Type.Optional(hasPhysicalLocation),
    employee_count: Type.Optional(employeeCount),
  },
  { title: 'LocationConfig' },
);

export const LocationConfigSchema = Type.Object(
  { has_employees: hasEmployees, has_physical_location: hasPhysicalLocation, employee_count: employeeCount },
  { title: 'LocationConfig' },
);

export const LocationSchema = Type.Object(
  { location: LocationRefSchema, config: LocationConfigSchema },
  { title: 'AccountLegalEntityLocation' },
);
export type Location = Static<typeof LocationSchema>;

export const CreateLocationRequestSchema = Nullable(
  Type.Object({ config: Type.Optional(Nullable(LocationConfigInputSchema)) }, { title: 'CreateLocationRequest' }),
);
export const UpdateLocationRequestSchema = Type.Object(
  { config: Type.Optional(Nullable(LocationConfigInputSchema)) },
  { title: 'UpdateLocationRequest' },
);

export const LocationIdParamsSchema = Type.Object({ location_public_id: BoundedString(64) });
export const RegionPlatformIdParamsSchema = Type.Object({ region_platform_public_id: BoundedString(64) });

// v2
export const PlatformRegionConfigSchema = Type.Object(
  {
    employee_count: Type.Union([Type.Integer({ minimum: 0, maximum: 10_000_000 }), Type.Null()], {
      description: 'All current full-time employees in the region; null if unknown.',
    }),
  },
  { title: 'PlatformRegionConfig' },
);

export const PlatformRegionSchema = Type.Object(
  { region: LocationRefSchema, config: PlatformRegionConfigSchema },
  { title: 'PlatformRegion' },
);

export const PlatformBatchRegionConfigSchema = Type.Object(
  {
    config: Type.Unsafe<Record<string, Static<typeof PlatformRegionConfigSchema>>>({
      type: 'object',
      additionalProperties: PlatformRegionConfigSchema,
      propertyNames: RegionInput,
      maxProperties: 51,
      description: 'Two-letter state code → region configuration.',
    }),
  },
  { title: 'PlatformBatchRegionConfig' },
);

export const RegionParamsSchema = Type.Object({ region: RegionInput });
