/**
 * The HTTP methods the mock answers at all: the service's routes and WireMock stubs take these (a stub's HEAD falls back
 * to the GET answer without its body), and the standalone server answers any other (TRACE, PROPFIND…) with 405 before
 * a route or a stub sees it. The journal's method filter takes the same list.
 */
export const SERVED_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'] as const;
