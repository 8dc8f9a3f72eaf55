/** GET /openapi.json: the service's OpenAPI document with servers at the address asked (no auth, no rate limit, no faults: the mock's own route). */
import { http, HttpResponse, type HttpHandler } from 'msw';
import { OPENAPI_DOCUMENT_PATH } from '../contract/api';
import { openApiDocument } from '../openapi/document';

export function openApiHandler(): HttpHandler {
	return http.get(`*${OPENAPI_DOCUMENT_PATH}`, ({ request }) => HttpResponse.json(openApiDocument(new URL(request.url).origin)));
}
