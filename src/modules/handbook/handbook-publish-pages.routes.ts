import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { FEDERAL } from '../../catalog/handbook.js';
import { ConflictError } from '../../lib/errors.js';
import { renderMessagePage } from '../../pages/common-pages.js';
import { handbookArticle } from '../../pages/handbook-document.js';
import { renderHandbookPublished, renderHandbookReview } from '../../pages/handbook-publish-pages.js';
import { sendPage } from '../../http/pages.js';
import { hostedOf, requireHostedSession, type HostedContext } from '../hosted-sessions/contract.js';
import type { HostedSessionsService } from '../hosted-sessions/contract.js';
import { HANDBOOK_FILE_PATH } from './contract.js';
import { regionName } from './handbook.fns.js';
import type { HandbookOverviewService } from './handbook-overview.service.js';
import { frameOf } from './handbook-page-frame.js';
import { renderHandbookPdf } from './handbook-pdf.js';
import type { HandbookPublishingService } from './handbook-publishing.service.js';
import { unchangedMessage, type BuilderState } from './handbook.types.js';

const FileParams = Type.Object({ entity: Type.String({ maxLength: 64 }), file: Type.String({ maxLength: 80 }) });

/** Step 5 of the hosted handbook builder (review and publish), the published page, and the PDF behind its signed link. */
export function handbookPublishPageRoutes(deps: {
  overview: Pick<HandbookOverviewService, 'state'>;
  publishing: HandbookPublishingService;
  sessions: Pick<HostedSessionsService, 'check'>;
  publicOrigin: string;
}) {
  return async (app: FastifyInstance) => {
    const guarded = { preHandler: requireHostedSession(deps, ['handbook']), schema: { hide: true } };
    const load = async (hosted: HostedContext) => deps.overview.state(hosted.scope);

    const reviewPage = (reply: FastifyReply, hosted: HostedContext, state: BuilderState, error: string | null) => {
      const included = state.derivation.applicable.filter((a) => a.included);
      const sections = [FEDERAL, ...state.derivation.employeeRegions]
        .map((region) => ({
          heading: region === FEDERAL ? 'Policies for every employee' : `Employees in ${regionName(region)}`,
          titles: included.filter((a) => a.policy.region === region).map((a) => a.policy.title),
        }))
        .filter((s) => s.titles.length);
      return sendPage(
        reply,
        renderHandbookReview(frameOf(hosted, state), {
          blockers: state.derivation.blockers,
          sections,
          employees: state.employees.length,
          nextVersion: (state.latest?.number ?? 0) + 1,
          error,
          unchanged: state.unchangedSince === null ? null : unchangedMessage(state.unchangedSince),
        }),
        { status: error ? 409 : 200 },
      );
    };
    app.get('/hosted/handbook/publish', guarded, async (request, reply) => {
      const hosted = hostedOf(request);
      return reviewPage(reply, hosted, await load(hosted), null);
    });
    app.post('/hosted/handbook/publish', guarded, async (request, reply) => {
      const hosted = hostedOf(request);
      try {
        await deps.publishing.publish(hosted.scope);
      } catch (error) {
        if (error instanceof ConflictError) return reviewPage(reply, hosted, await load(hosted), (error as Error).message);
        throw error;
      }
      return reply.redirect('/hosted/handbook/published', 303);
    });

    app.get('/hosted/handbook/published', guarded, async (request, reply) => {
      const hosted = hostedOf(request);
      const state = await load(hosted);
      if (!state.latest) return reply.redirect('/hosted/handbook/publish', 303);
      return sendPage(
        reply,
        renderHandbookPublished(frameOf(hosted, state), {
          article: handbookArticle(state.latest.document),
          version: state.latest.number,
          pdfUrl: await deps.publishing.pdfUrl(hosted.scope, state.latest.id),
          employees: state.employees,
          callbackUrl: hosted.session.callback_url,
        }),
        { formTarget: null },
      );
    });

    // The PDF behind its signed link: no session needed (a browser or a mail client opens it), the signature is the credential.
    app.get<{ Params: { entity: string; file: string }; Querystring: { expires?: string; signature?: string } }>(
      `${HANDBOOK_FILE_PATH}:entity/:file`,
      { schema: { hide: true, params: FileParams } },
      async (request, reply) => {
        const { entity, file } = request.params;
        const versionId = file.endsWith('.pdf') ? file.slice(0, -4) : null;
        const result = versionId
          ? await deps.publishing.pdf(entity, versionId, request.query.expires, request.query.signature)
          : { state: 'forged' as const };
        if (result.state !== 'ok') {
          const expired = result.state === 'expired';
          return sendPage(
            reply,
            renderMessagePage(
              expired
                ? {
                    title: 'This download link has expired',
                    body: 'Download links work for a limited time. Open the handbook builder again for a fresh one.',
                  }
                : {
                    title: 'This download link is not valid',
                    body: 'Check that the whole link was copied, or open the handbook builder again for a fresh one.',
                  },
            ),
            { status: expired ? 410 : 404 },
          );
        }
        const pdf = await renderHandbookPdf(result.document);
        return reply
          .type('application/pdf')
          .header('content-disposition', `attachment; filename="employee-handbook-v${result.document.version}.pdf"`)
          .header('cache-control', 'private, no-store')
          .header('x-content-type-options', 'nosniff')
          .header('referrer-policy', 'no-referrer')
          .send(pdf);
      },
    );
  };
}
