import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { BoundedString, errorResponses, Nullable } from '../../http/schemas.js';
import { MAX_DISPLAY_NAME, MAX_LOGO_BYTES, API_BRAND_FIELDS, type PlatformBrandsService } from '../platforms/contract.js';
import { OPERATOR_SECURITY, operatorPrincipalOf, type OperatorHook } from './operator-auth.js';
import type { AuditService } from '../audit/contract.js';

/** Room for a 100 KB file in base64 and then some: a larger one is refused by the size rule, with its size. */
const MAX_LOGO_BASE64 = 4 * Math.ceil((2 * MAX_LOGO_BYTES) / 3);

const PlatformParams = Type.Object({ platform_id: BoundedString(64) });

const PlatformBranding = Type.Object(
  {
    platform_id: Type.String(),
    display_name: Nullable(Type.String({ description: "Shown to business owners on every hosted page instead of the platform's name." })),
    accent_color: Nullable(Type.String({ description: '#rrggbb: buttons, links and focus outlines of the hosted pages.' })),
    logo: Nullable(
      Type.Object({
        content_type: Type.String({ description: '`image/png` or `image/jpeg`.' }),
        size_bytes: Type.Integer(),
        sha256: Type.String({ description: 'The logo is served from Statehouse itself at `/hosted/assets/logos/{sha256}`.' }),
      }),
    ),
    updated_at: Nullable(Type.String({ format: 'date-time' })),
  },
  { title: 'OperatorPlatformBranding' },
);

const PlatformBrandingUpdate = Type.Object(
  {
    display_name: Type.Optional(
      Nullable(BoundedString(MAX_DISPLAY_NAME + 50, { description: `1 to ${MAX_DISPLAY_NAME} characters after trimming.` })),
    ),
    accent_color: Type.Optional(
      Nullable(
        BoundedString(20, {
          description:
            '`#rgb` or `#rrggbb`. Must reach 4.5:1 against white (WCAG AA: white button text, links on white); a colour that does not is refused with the nearest darker shade that does.',
        }),
      ),
    ),
    logo_base64: Type.Optional(
      Nullable(
        Type.String({
          maxLength: MAX_LOGO_BASE64,
          pattern: '^[A-Za-z0-9+/]*={0,2}$',
          description: `A PNG or JPEG file, base64-encoded: at most ${MAX_LOGO_BYTES / 1024} KB and 2048 px a side. SVG is not accepted.`,
        }),
      ),
    ),
  },
  {
    title: 'OperatorPlatformBrandingUpdate',
    additionalProperties: false,
    description:
      'Every field is optional: an absent field keeps its value, `null` removes it (the hosted pages then use the default look).',
  },
);

/** A platform's branding of the hosted pages (GET and PUT /operator/v1/platforms/{platform_id}/branding), audited. */
export function operatorPlatformRoutes(deps: {
  operatorAuth: OperatorHook;
  brands: PlatformBrandsService;
  audit: Pick<AuditService, 'record'>;
}) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    const common = { onRequest: deps.operatorAuth };
    const tags = ['Operator'];
    const security = OPERATOR_SECURITY;

    r.get(
      '/operator/v1/platforms/:platform_id/branding',
      {
        ...common,
        schema: {
          operationId: 'operatorGetPlatformBranding',
          tags,
          security,
          summary: "A platform's branding of the hosted pages",
          params: PlatformParams,
          response: { 200: PlatformBranding, ...errorResponses(401, 404, 422) },
        },
      },
      async (request) => deps.brands.get(request.params.platform_id),
    );

    r.put(
      '/operator/v1/platforms/:platform_id/branding',
      {
        ...common,
        schema: {
          operationId: 'operatorUpdatePlatformBranding',
          tags,
          security,
          summary: "Set a platform's display name, accent colour and logo",
          description:
            'Every field is checked before anything is written; all refusals are reported together (422). Recorded in the audit trail (`platform.branding_update`).',
          params: PlatformParams,
          body: PlatformBrandingUpdate,
          response: { 200: PlatformBranding, ...errorResponses(401, 404, 422) },
        },
      },
      async (request) => {
        const { display_name, accent_color, logo_base64 } = request.body;
        const update = {
          ...(display_name !== undefined && { display_name }),
          ...(accent_color !== undefined && { accent_color }),
          ...(logo_base64 !== undefined && { logo: logo_base64 === null ? null : Buffer.from(logo_base64, 'base64') }),
        };
        return deps.brands.update(request.params.platform_id, update, API_BRAND_FIELDS, (trx, brand) =>
          deps.audit.record(trx, {
            operator: operatorPrincipalOf(request),
            action: 'platform.branding_update',
            subjectType: 'platform',
            subjectId: brand.platform_id,
            legalEntityId: null,
            details: {
              fields: Object.keys(request.body).sort(),
              display_name: brand.display_name,
              accent_color: brand.accent_color,
              logo_sha256: brand.logo?.sha256 ?? null,
            },
          }),
        );
      },
    );
  };
}
