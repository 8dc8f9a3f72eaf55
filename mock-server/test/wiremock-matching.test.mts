// The matching parts on their own: the JSONPath subset (what each served form selects, what is refused), the literal prefix the stub index pre-checks paths with (never longer than what every match starts with), the index's answer for requests no stub can match, and the gate's reading of query names (as URLSearchParams reads them).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileJsonPath, JsonPathError } from '../src/wiremock/json-path.mts';
import { MappingsStore } from '../src/wiremock/mappings-store.mts';
import { literalPrefix } from '../src/wiremock/request-pattern.mts';
import { hasParameter } from '../src/wiremock/stub-answers.mts';

const doc = {
	store: {
		book: [
			{ category: 'reference', author: 'Nigel Rees', title: 'Sayings', price: 8.95 },
			{ category: 'fiction', author: 'Evelyn Waugh', title: 'Sword', price: 12.99, isbn: '0-553' },
			{ category: 'fiction', author: 'Herman Melville', title: 'Moby Dick', price: 8.99, isbn: '0-553-2' },
		],
		bicycle: { color: 'red', price: 19.95 },
		'odd key': 1,
	},
	empty: [],
	nothing: null,
};

describe('the JSONPath subset', () => {
	const cases: [string, unknown[], boolean][] = [
		['$', [doc], true],
		['$.store.bicycle.color', ['red'], true],
		["$['store']['odd key']", [1], true],
		['$["store"].bicycle["color"]', ['red'], true],
		['$.store.book[0].title', ['Sayings'], true],
		['$.store.book[-1].title', ['Moby Dick'], true],
		['$.store.book[0,2].price', [8.95, 8.99], false],
		["$.store.bicycle['color','price']", ['red', 19.95], false],
		['$.store.book[*].author', ['Nigel Rees', 'Evelyn Waugh', 'Herman Melville'], false],
		['$.store.bicycle.*', ['red', 19.95], false],
		['$..price', [8.95, 12.99, 8.99, 19.95], false],
		['$..book[1].title', ['Sword'], false],
		['$.store.book[?(@.isbn)].title', ['Sword', 'Moby Dick'], false],
		['$.store.book[?(@.price < 10)].title', ['Sayings', 'Moby Dick'], false],
		["$.store.book[?(@.category == 'fiction' && @.price > 10)].title", ['Sword'], false],
		["$.store.book[?(@.category != 'fiction' || @.price >= 12.99)].title", ['Sayings', 'Sword'], false],
		['$.store.book[?(!(@.price < 10))].title', ['Sword'], false],
		['$.store.book[?(@.author =~ /.*MELVILLE/i)].title', ['Moby Dick'], false],
		['$.store.book[?(@.price == 8.95)].author', ['Nigel Rees'], false],
		['$.store.missing', [], true],
		['$.store.book[7]', [], true],
		['$.nothing', [null], true],
	];
	it.each(cases)('%s', (expression, values, definite) => {
		const path = compileJsonPath(expression);
		expect(path.select(doc)).toEqual(values);
		expect(path.definite).toBe(definite);
	});

	it.each([
		['store.book', /expected "\$"/],
		['$.store.book[0:2]', /slices are not served/],
		['$.store.book.length()', /functions such as length\(\) are not served/],
		['$.store.book[?(@.price in [1, 2])]', /filter operators other than/],
		['$.store.book[?(@.price < $.x)]', /\$ inside a filter is not served/],
		['$.store[', /expected an index/],
		["$['a", /unterminated string/],
		['$.a[?(@.b =~ /(/)]', /bad regular expression/],
		['$.a b', /unexpected text/],
	])('refuses %s', (expression, message) => {
		expect(() => compileJsonPath(expression)).toThrow(JsonPathError);
		expect(() => compileJsonPath(expression)).toThrow(message);
	});
});

describe('the literal prefix of a URL pattern (the stub index pre-checks paths with it)', () => {
	const cases: [string, string, string[]][] = [
		['/v2/jobs/.*', '/v2/jobs/', ['/v2/jobs/', '/v2/jobs/x']],
		['^/v2/jobs/[0-9]+', '/v2/jobs/', ['/v2/jobs/1']],
		['/v2/jobs?', '/v2/job', ['/v2/job', '/v2/jobs']],
		['/v2/jobs*', '/v2/job', ['/v2/job', '/v2/jobsss']],
		['/v2/jobs{0,1}', '/v2/job', ['/v2/job']],
		['/v2/jobs+/x', '/v2/jobs', ['/v2/jobsss/x']],
		['/v2\\.x/y', '/v2.x/y', ['/v2.x/y']],
		['/v2\\/?y', '/v2', ['/v2y', '/v2/y']],
		['/v2/\\d+', '/v2/', ['/v2/12']],
		['/a|/b', '', ['/a', '/b']],
		['(/a)/b', '', ['/a/b']],
		['[/]a', '', ['/a']],
		['.*', '', ['/anything']],
	];
	it.each(cases)('%s → "%s", and every match starts with it', (source, prefix, matches) => {
		expect(literalPrefix(source)).toBe(prefix);
		const regex = new RegExp(`^(?:${source})$`);
		for (const each of matches) {
			expect(regex.test(each), each).toBe(true);
			expect(each.startsWith(prefix), each).toBe(true);
		}
	});
});

describe('the stub index', () => {
	it('tells a request no stub can match without a promise, and finds the ones that can, in their order', () => {
		const store = new MappingsStore();
		for (let i = 0; i < 100; i++) store.add({ request: { method: 'GET', urlPath: `/v2/jobs/job_${i}` }, response: { status: 200 } });
		store.add({ request: { method: 'POST', urlPathPattern: '/v2/jobs/.*' }, response: { status: 201 } });
		store.add({ request: { urlPattern: '/v2/signals/[a-z]+\\?page=2' }, response: { status: 202 } });
		expect(store.candidates('GET', '/v2/collections', '/v2/collections')).toBeUndefined();
		expect(store.candidates('GET', '/v2/jobs/job_100', '/v2/jobs/job_100')).toBeUndefined();
		expect(store.candidates('GET', '/v2/signals/problems', '/v2/signals/problems?page=3')).toBeUndefined();
		expect(store.candidates('GET', '/v2/jobs/job_7', '/v2/jobs/job_7?x=1')?.stubs.map((stub) => stub.request.url)).toEqual([{ kind: 'urlPath', value: '/v2/jobs/job_7', path: '/v2/jobs/job_7' }]);
		expect(store.candidates('POST', '/v2/jobs/anything', '/v2/jobs/anything')?.stubs).toHaveLength(1);
		expect(store.candidates('DELETE', '/v2/signals/problems', '/v2/signals/problems?page=2')?.stubs).toHaveLength(1);
		expect(store.mayServe('/v2/collections')).toBe(false);
		expect(store.mayServe('/v2/jobs/zzz')).toBe(true);
	});

	it('finds pattern stubs by the folder of their literal start, in the order they are tried', () => {
		const store = new MappingsStore();
		const add = (pattern: Record<string, string>, priority: number) => store.add({ request: pattern, response: { status: 200 }, priority }).id;
		const anywhere = add({ urlPathPattern: '.*/job_[0-9]+' }, 4);
		const midSegment = add({ urlPathPattern: '/v2/jo.*' }, 3);
		const jobs = add({ urlPathPattern: '/v2/jobs/job_[0-9]+' }, 2);
		const deeper = add({ urlPattern: '/v2/jobs/job_1/x\\?a=1' }, 1);
		const ids = (path: string, pathAndQuery = path) => store.candidates('GET', path, pathAndQuery)?.stubs.map((stub) => stub.id);
		expect(ids('/v2/jobs/job_7')).toEqual([jobs, midSegment, anywhere]);
		expect(ids('/v2/jobs/job_1/x', '/v2/jobs/job_1/x?a=1')).toEqual([deeper, midSegment]);
		expect(ids('/v2/signals/job_7')).toEqual([anywhere]);
		expect(ids('/v2/collections')).toBeUndefined();
	});

	it('gates a list whose stubs each need a query parameter or header by those names; a stub that needs none (or only their absence) opens it', () => {
		const store = new MappingsStore();
		store.add({ request: { urlPath: '/v2/collections', queryParameters: { page: { equalTo: '2' }, debug: { absent: true } } }, response: { status: 200 } });
		store.add({ request: { urlPath: '/v2/collections', headers: { 'X-Trace': { matches: 't.*' } } }, response: { status: 200 } });
		store.add({ request: { urlPath: '/v2/collections', queryParameters: { page: { equalTo: '3' } } }, response: { status: 200 } });
		expect(store.candidates('GET', '/v2/collections', '/v2/collections')?.gate).toEqual({ query: ['page'], headers: ['x-trace'] });
		store.add({ request: { urlPathPattern: '/v2/coll.*' }, response: { status: 200 } });
		expect(store.candidates('GET', '/v2/collections', '/v2/collections')?.gate).toBeUndefined();
		store.add({ request: { urlPath: '/v2/jobs', headers: { 'x-trace': { absent: true } } }, response: { status: 200 } });
		expect(store.candidates('GET', '/v2/jobs', '/v2/jobs')).toMatchObject({ gate: undefined });
	});
});

describe("the gate's query names", () => {
	it('finds a parameter name exactly when URLSearchParams does, whatever the query (encoded names, +, empty parts, no =)', () => {
		const piece = fc.constantFrom('a', 'b', 'ab', '%61', '%2', '+', ' ', '=', '&', '%26', 'é', '%C3%A9', '');
		const text = fc.array(piece, { maxLength: 8 }).map((parts) => parts.join(''));
		fc.assert(
			fc.property(text, fc.constantFrom('a', 'b', 'ab', ' ', '&', 'é', '', 'a b'), (query, name) => {
				expect(hasParameter(query, [name]), `${JSON.stringify(query)} has ${JSON.stringify(name)}`).toBe(new URLSearchParams(query).has(name));
			}),
			{ numRuns: 5000, seed: 29 },
		);
	});
});
