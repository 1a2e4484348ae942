// What a TypeScript parameter's declared type says about its role: a handler whose parameters are typed by their
// framework (`(input: Request, output: Response)`, `request: FastifyRequest`, `event: APIGatewayProxyEvent`) has
// its request whatever the names. The types are read back from the original text (js-ts-types.ts); a type only
// adds a role, never takes one away (custom request types, `AuthenticatedRequest`, keep their names' reading).
import type * as ESTree from 'estree';
import type { TypeAnnotations } from '../js-ts-types.js';
import type { Role } from './label.js';

/** The incoming request of Express, the Fetch API (Next.js, Workers), Fastify, Node's http, Next's API routes, AWS Lambda's API Gateway and ALB events. */
const REQUEST_TYPE = /^(Request|FastifyRequest|IncomingMessage|NextApiRequest|NextRequest|APIGatewayProxyEvent|APIGatewayProxyEventV2|ALBEvent)$/;
/** The response those servers write to. */
const RESPONSE_TYPE = /^(Response|FastifyReply|ServerResponse|NextApiResponse)$/;
/** Koa's context. */
const KOA_TYPE = /^(Koa\.)?(Context|ParameterizedContext|RouterContext)$/;

export function typedRole(types: TypeAnnotations | undefined, param: ESTree.Pattern): Role | undefined {
  if (!types || param.type !== 'Identifier') return undefined;
  const t = types.declared(param);
  if (!t) return undefined;
  const last = t.slice(t.lastIndexOf('.') + 1);
  if (REQUEST_TYPE.test(last)) return 'request';
  if (RESPONSE_TYPE.test(last)) return 'response';
  // Context alone names many things (Hono's, GraphQL's): Koa's only when spelled so or with Koa's own type names.
  if (KOA_TYPE.test(t) && (t.startsWith('Koa.') || last !== 'Context')) return 'koa';
  return undefined;
}
