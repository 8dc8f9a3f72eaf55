/**
 * The standalone server's answer to a request on a path only stubs serve when no stub matched it: 404 with a
 * plain-text diff against the closest stub (distance.mts), laid out as WireMock's "Request was not matched":
 * the stub's side and the request's side in two columns, each field that does not match marked with what it is.
 */
import { textValue } from './content-patterns.mts';
import type { FieldResult } from './distance.mts';
import type { MappingsStore } from './mappings-store.mts';
import { closestStubs, requestView } from './near-misses.mts';

const COLUMN = 58;
const RULE = '-'.repeat(COLUMN * 2 + 3);
/** A body is shown up to this many characters a side (the journal keeps the whole start: GET /__admin/requests). */
const MAX_SHOWN_BODY = 1000;
const REASONS: Record<FieldResult['kind'], string> = {
	method: 'HTTP method does not match',
	url: 'URL does not match',
	query: 'Query does not match',
	header: 'Header does not match',
	body: 'Body does not match',
	scenario: 'Scenario state does not match',
};

/** A request as the diff reads it: its method as the stubs were tried with it (HEAD is tried as GET). */
export interface NotMatched {
	readonly method: string;
	readonly url: URL;
	readonly headers: Headers;
}

/** The 404 for a request no stub matched; `body`: its body's text ('' when none). */
export function notMatchedAnswer(store: MappingsStore, request: NotMatched, body: string): Response {
	const { url } = request;
	const view = requestView(request.method, `${url.pathname}${url.search}`, (name) => {
		const value = request.headers.get(name);
		return value === null ? [] : [value];
	});
	const [nearest] = closestStubs(store, view, textValue(body), 1);
	const title = 'Request was not matched';
	const indent = ' '.repeat((RULE.length - title.length) / 2);
	const lines = ['', `${indent}${title}`, `${indent}${'='.repeat(title.length)}`, ''];
	if (nearest === undefined) {
		lines.push(`No stub to compare ${request.method} ${url.pathname}${url.search} with (GET /__admin/mappings lists them).`, '');
	} else {
		const name = nearest.item.mapping.name;
		lines.push(RULE, `${'| Closest stub'.padEnd(COLUMN)} | ${'Request'.padEnd(COLUMN - 2)} |`, RULE, row('', ''));
		if (typeof name === 'string') lines.push(row(name, ''), row('', ''));
		for (const field of nearest.result.fields) lines.push(...fieldRows(field), ...(field.kind === 'url' ? [row('', '')] : []));
		lines.push(row('', ''), RULE, '');
		lines.push(`The closest of ${store.size} stub${store.size === 1 ? '' : 's'} (distance ${round(nearest.result.distance)}: 0 matches, 1 matches in nothing); POST /__admin/near-misses/request lists the nearest 3.`, '');
	}
	return new Response(lines.join('\n'), { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}

function fieldRows(field: FieldResult): string[] {
	const mark = field.distance === 0 ? undefined : REASONS[field.kind];
	if (field.kind !== 'body') return [row(field.expected, field.actual, mark)];
	// The body's lines beside the pattern, the mark on the first.
	const actual = cut(field.actual).split('\n');
	const expected = cut(field.expected).split('\n');
	return Array.from({ length: Math.max(actual.length, expected.length) }, (_, i) => row(expected[i] ?? '', actual[i] ?? '', i === 0 ? mark : undefined));
}

function row(left: string, right: string, mark?: string): string {
	const line = `${left.padEnd(COLUMN)} | ${mark === undefined ? right : `${right.padEnd(COLUMN)} <<<<< ${mark}`}`;
	return line.trimEnd();
}

const cut = (text: string) => (text.length > MAX_SHOWN_BODY ? `${text.slice(0, MAX_SHOWN_BODY)}… (${text.length - MAX_SHOWN_BODY} more characters)` : text);
const round = (distance: number) => Math.round(distance * 1000) / 1000;
