/** GET /openapi.json: the service's OpenAPI document with servers at the address asked (no auth, no rate limit, no faults: the mock's own route). */
import { http, HttpResponse, type HttpHandler } from 'msw';
import { OPENAPI_DOCUMENT_PATH } from '../../../contract/api';
import { openApiDocument } from '../openapi/document.mts';

export function openApiHandler(): HttpHandler {
	return http.get(`*${OPENAPI_DOCUMENT_PATH}`, ({ request }) => {
		const url = new URL(request.url);
		// `*` lets any origin in, and any path prefix too: /v2/jobs/openapi.json is job by id, not this document.
		if (url.pathname !== OPENAPI_DOCUMENT_PATH) return undefined;
		return HttpResponse.json(openApiDocument(url.origin));
	});
}
