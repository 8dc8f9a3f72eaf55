/**
 * The OpenAPI 3.1 document of the service as the mock serves it, generated
 * from the contract: the endpoint table (endpoints.ts), the bodies (schemas.ts)
 * and what only the document needs (operations.ts). Never written by hand.
 */
import {
	ANSWER_SCHEMAS,
	API_VERSION_SEGMENT,
	apiErrorSchema,
	BODY_SCHEMAS,
	CHOICES,
	type Endpoint,
	type EndpointName,
	ENDPOINTS,
	QUERY_SCHEMAS,
} from '../base/contract.mts';
import { BAD_REQUEST_BODIES, OPERATION_TAGS, PATH_PARAMETER_SCHEMAS, PATH_PARAMETERS, WEBHOOK_DELIVERY } from './operations.mts';
import { componentSchemas, queryParameters, type JsonSchema } from './json-schema.mts';
import { HEADERS, RATE_LIMIT_HEADERS, responseRef, sharedResponses } from './responses.mts';

export type OpenApiDocument = Record<string, unknown> & { paths: Record<string, Record<string, unknown>> };

const BEARER = 'bearerAuth';
/** The mock package's license (mock-server/LICENSE), which the documents it writes carry. */
export const DOCUMENT_LICENSE = { name: 'MIT', identifier: 'MIT' };
const json = (schema: JsonSchema) => ({ 'application/json': { schema } });

/** `/signals/:group` → `/signals/{group}`, and the parameter names in order. */
function openApiPath(path: string): { key: string; params: string[] } {
	const params = [...path.matchAll(/:([a-z_]+)/g)].map((m) => m[1]);
	return { key: path.replace(/:([a-z_]+)/g, '{$1}'), params };
}

/** Everything but the servers, built once: the servers follow the address each request came to. */
function build() {
	const names = Object.keys(ENDPOINTS) as EndpointName[];
	const queryOf = (name: EndpointName) => (ENDPOINTS[name] as Endpoint).doc.query;
	const components = componentSchemas(new Set(names.flatMap((name) => queryOf(name) ?? []).map((query) => QUERY_SCHEMAS[query])));
	const errorBody = components.ref(apiErrorSchema);

	const operation = (name: EndpointName, params: string[]): JsonSchema => {
		const endpoint: Endpoint = ENDPOINTS[name];
		const info = endpoint.doc;
		const query = info.query && QUERY_SCHEMAS[info.query];
		const requestBody = info.body && BODY_SCHEMAS[info.body];
		const badRequest = BAD_REQUEST_BODIES[name];
		const rateLimited = endpoint.on === 'api' || CHOICES.rateLimitAppliesToAppUrl;
		const bearer = info.tokenInBody !== true;
		const responses: Record<string, JsonSchema> = {};
		responses[info.status] = info.status === 204 || endpoint.answer === 'none'
			? { description: 'Done (no body)', ...(rateLimited && { headers: RATE_LIMIT_HEADERS }) }
			: { description: 'Success', ...(rateLimited && { headers: RATE_LIMIT_HEADERS }), content: json(components.ref(ANSWER_SCHEMAS[endpoint.answer])) };
		const refusals = new Map<number, string[]>();
		const refuse = (status: number, why: string) => refusals.set(status, [...(refusals.get(status) ?? []), why]);
		if (bearer) refuse(CHOICES.authErrorStatus, 'a missing, malformed or unknown bearer token');
		if (query) refuse(400, 'an invalid query parameter (the message names it)');
		if (requestBody) refuse(400, info.tokenInBody ? 'an unknown `access_token`, no valid address or too many, or a body that is not JSON of the documented shape (`responseText` says which)' : 'a body that is not JSON of the documented shape (the message names the field)');
		for (const [status, whys] of refusals) {
			const body = status === 400 && badRequest ? components.ref(badRequest) : errorBody;
			responses[status] = { description: `Refused: ${whys.join('; or ')}`, content: json(body) };
		}
		if (params.length > 0) responses[404] = { description: `No such ${params.join(' / ')} (for this account)`, content: json(errorBody) };
		responses[405] = responseRef('MethodNotAllowed');
		if (requestBody) responses[413] = responseRef('PayloadTooLarge');
		responses[414] = responseRef('UriTooLong');
		if (rateLimited) responses[429] = responseRef('TooManyRequests');
		for (const [status, description] of Object.entries(info.more ?? {})) responses[status] = { description, content: json(errorBody) };
		responses[500] = responseRef('ServerError');
		const parameters = [
			...params.map((name) => {
				const description = PATH_PARAMETERS[name];
				if (description === undefined) throw new Error(`PATH_PARAMETERS has no entry for ":${name}"`);
				return { name, in: 'path', required: true, description, schema: { type: 'string', minLength: 1, ...PATH_PARAMETER_SCHEMAS[name] } };
			}),
			...(query ? queryParameters(query).map((p) => ({ in: 'query', ...p })) : []),
		];
		return {
			operationId: info.operationId,
			summary: info.summary,
			tags: [info.tag],
			...(OPERATION_TAGS[info.tag].deprecated && { deprecated: true }),
			security: bearer ? [{ [BEARER]: [] }] : [],
			...(parameters.length > 0 && { parameters }),
			...(requestBody && { requestBody: { required: true, content: json(components.ref(requestBody)) } }),
			responses: Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b))),
		};
	};

	/** The path items under the API URL (`api`) or the app URL (`app`), each path's methods in the table's order. */
	const pathItems = (on: Endpoint['on']) => {
		const items: Record<string, Record<string, JsonSchema>> = {};
		for (const name of names.filter((n) => ENDPOINTS[n].on === on)) {
			const { key, params } = openApiPath(ENDPOINTS[name].path);
			(items[key] ??= {})[ENDPOINTS[name].method.toLowerCase()] = operation(name, params);
		}
		return items;
	};

	return {
		apiPaths: pathItems('api'),
		appPaths: pathItems('app'),
		webhooks: {
			event: {
				post: {
					operationId: WEBHOOK_DELIVERY.operationId,
					summary: WEBHOOK_DELIVERY.summary,
					description: WEBHOOK_DELIVERY.description,
					// The service sends no credentials: explicitly none, not forgotten (Redocly's security-defined).
					security: [],
					requestBody: { required: true, content: json(components.ref(WEBHOOK_DELIVERY.body)) },
					responses: { 200: { description: 'Received' } },
				},
			},
		},
		components: {
			schemas: components.schemas,
			responses: sharedResponses(errorBody),
			headers: HEADERS,
			securitySchemes: { [BEARER]: { type: 'http', scheme: 'bearer', description: 'The API token: `Authorization: Bearer <api_token>`' } },
		},
	};
}

let built: ReturnType<typeof build> | undefined;

/** The document, with servers at `appUrl` (an origin such as `http://127.0.0.1:4010`). */
export function openApiDocument(appUrl: string): OpenApiDocument {
	built ??= build();
	const appServers = [{ url: appUrl, description: 'App URL ({app_url}): subscriber upload and webhook settings' }];
	return {
		openapi: '3.1.1',
		info: {
			title: 'Job Signals service',
			version: API_VERSION_SEGMENT.slice(1),
			description: "The service as the job-signals mock serves it: the spec's endpoints and this project's assumptions where the spec says \"not shown\" (docs/api-assumptions.md). Generated from the repository's contract/; the mock's own /__mock routes are not part of it (they are in the package's openapi-control.json). The license is this document's, written by the MIT-licensed job-signals-mock-server, not the service's terms of use.",
			license: DOCUMENT_LICENSE,
		},
		jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
		servers: [{ url: `${appUrl}${API_VERSION_SEGMENT}`, description: 'API base ({base_url})' }],
		tags: Object.entries(OPERATION_TAGS).map(([name, { description }]) => ({ name, description })),
		paths: {
			...built.apiPaths,
			...Object.fromEntries(Object.entries(built.appPaths).map(([key, item]) => [key, { servers: appServers, ...item }])),
		},
		webhooks: built.webhooks,
		components: built.components,
	};
}
