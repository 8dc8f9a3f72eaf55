/**
 * What the stub layer noticed about a request and the answer should say, whoever answers it (a stub, a
 * service route, or nobody): a stub pattern the request's work budget could not pay for
 * (wiremock/linear-regex.mts). Kept by the request object, which the stub layer and the routes share.
 */
const notes = new WeakMap<Request, string[]>();

export function addRequestNotes(request: Request, added: readonly string[]): void {
	if (added.length === 0) return;
	const kept = notes.get(request);
	if (kept === undefined) notes.set(request, [...added]);
	else kept.push(...added);
}

export function requestNotes(request: Request): readonly string[] {
	return notes.get(request) ?? [];
}
