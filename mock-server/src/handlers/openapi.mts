/**
 * GET /openapi.json: the service's OpenAPI document, and GET /__mock/openapi.json: the control API's, each with
 * servers at the address asked (no auth, no rate limit, no faults: the mock's own routes).
 */
import { http, HttpResponse, type HttpHandler } from 'msw';
import { MOCK_CONTROL_PATHS, OPENAPI_DOCUMENT_PATH } from '../base/contract.mts';
import { openApiControlDocument } from '../openapi/control-document.mts';
import { openApiDocument, type OpenApiDocument } from '../openapi/document.mts';

const documentAt = (path: string, build: (appUrl: string) => OpenApiDocument): HttpHandler =>
	http.get(`*${path}`, ({ request }) => {
		const url = new URL(request.url);
		// `*` lets any origin in, and any path prefix too: /v2/jobs/openapi.json is job by id, not this document.
		if (url.pathname !== path) return undefined;
		return HttpResponse.json(build(url.origin));
	});

export function openApiHandlers(): HttpHandler[] {
	return [documentAt(OPENAPI_DOCUMENT_PATH, openApiDocument), documentAt(MOCK_CONTROL_PATHS.openapi, openApiControlDocument)];
}
