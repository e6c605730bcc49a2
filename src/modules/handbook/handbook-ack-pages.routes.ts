import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { renderMessagePage } from '../../pages/common-pages.js';
import { renderAcknowledgementPage } from '../../pages/handbook-ack-page.js';
import { acknowledgementStatement, handbookArticle } from '../../pages/handbook-document.js';
import { formOf, isSameOrigin, sendPage } from '../../http/pages.js';
import { HANDBOOK_ACK_PATH } from './contract.js';
import type { HandbookAcknowledgementsService } from './handbook-acknowledgements.service.js';

const TokenParams = Type.Object({ token: Type.String({ maxLength: 128 }) });

/** The employee's page behind their personal link (no session: the token is the credential) and its acknowledgement form. */
export function handbookAckPageRoutes(deps: { acknowledgements: HandbookAcknowledgementsService; publicOrigin: string }) {
  return async (app: FastifyInstance) => {
    // Opening the page changes nothing (link scanners open links too); only the form acknowledges.
    const ackPage = async (reply: FastifyReply, token: string, typed: { value: string; error: string | null } | null, status = 200) => {
      const view = await deps.acknowledgements.view(token);
      if (view.state !== 'ok') {
        return view.state === 'removed'
          ? sendPage(
              reply,
              renderMessagePage({
                title: 'This link no longer works',
                body: 'Your employer removed it. Ask them if you think this is a mistake.',
              }),
              { status: 410 },
            )
          : sendPage(
              reply,
              renderMessagePage({
                title: 'This link is not valid',
                body: 'Check that the whole link was copied, or ask your employer for your personal link.',
              }),
              { status: 404 },
            );
      }
      return sendPage(
        reply,
        renderAcknowledgementPage({
          platformName: view.document.businessName,
          businessName: view.document.businessName,
          employeeName: view.employeeName,
          article: handbookArticle(view.document),
          statement: acknowledgementStatement(view.document),
          // The fragment lands a refused form's reload on the form and its error summary, not the top of a long page.
          action: `${HANDBOOK_ACK_PATH}${encodeURIComponent(token)}#acknowledge`,
          state: view.acknowledgedAt ? 'acknowledged' : view.superseded ? 'superseded' : 'open',
          acknowledgedAt: view.acknowledgedAt,
          typedName: view.typedName,
          value: typed?.value ?? '',
          error: typed?.error ?? null,
        }),
        { status },
      );
    };
    app.get<{ Params: { token: string } }>(
      `${HANDBOOK_ACK_PATH}:token`,
      { schema: { hide: true, params: TokenParams } },
      async (request, reply) => ackPage(reply, request.params.token, null),
    );
    app.post<{ Params: { token: string } }>(
      `${HANDBOOK_ACK_PATH}:token`,
      { schema: { hide: true, params: TokenParams } },
      async (request, reply) => {
        if (!isSameOrigin(request, deps.publicOrigin))
          return sendPage(reply, renderMessagePage({ title: 'This form has expired', body: 'Reload the page and try again.' }), {
            status: 403,
          });
        const typedName = formOf(request).typed_name ?? '';
        const result = await deps.acknowledgements.acknowledge(request.params.token, typedName.trim());
        if (result.state === 'invalid') return ackPage(reply, request.params.token, { value: typedName, error: result.error }, 422);
        if (result.state === 'superseded') return ackPage(reply, request.params.token, null, 409);
        if (result.state === 'acknowledged')
          return reply
            .header('referrer-policy', 'no-referrer')
            .redirect(`${HANDBOOK_ACK_PATH}${encodeURIComponent(request.params.token)}`, 303);
        return ackPage(reply, request.params.token, null);
      },
    );
  };
}
