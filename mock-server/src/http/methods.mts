/**
 * The HTTP methods the mock answers at all: the service's routes and WireMock stubs take these (a HEAD no HEAD stub
 * answers falls back to the GET answer without its body; a CORS preflight is never a stub's: http/with-cors.mts), and
 * the standalone server answers any other (TRACE, PROPFIND…) with 405 before a route or a stub sees it.
 */
export const SERVED_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'] as const;
