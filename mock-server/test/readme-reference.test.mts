// mock-server/README.md's reference tables against the code: every flag the CLI's usage (`--help`) prints has
// a row in the README's flag table, and every row a flag the CLI takes (the same for `record`); every control
// route the mock registers (/__mock, /__admin) has a row in the Control API or WireMock table, and every row
// is a route the mock serves; every control path of the contract has a row (the page, which no route serves, too).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MOCK_CONTROL_PATHS } from '../src/base/contract.mts';
import { FlagError, parseFlags, USAGE } from '../src/cli-flags.mts';
import { parseCloneFlags, CLONE_USAGE, CloneFlagError } from '../src/clone/flags.mts';
import { isPagePath, pageAnswer } from '../src/page/page.mts';
import { ROOT_PATH, rootAnswer } from '../src/page/root.mts';
import { createMockService } from '../src/service.mts';
import { SMALL } from './harness.mts';

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

/** The cells of each row of the first table under the heading that starts with `heading` whose header row starts with `header`. */
function tableRows(heading: string, header: string): string[][] {
	const lines = README.split('\n');
	const section = lines.findIndex((line) => line.startsWith(`## ${heading}`));
	expect(section, `no "## ${heading}" heading`).toBeGreaterThanOrEqual(0);
	const end = lines.findIndex((line, i) => i > section && line.startsWith('## '));
	const start = lines.findIndex((line, i) => i > section && (end < 0 || i < end) && line.startsWith(header));
	expect(start, `no table "${header}" under "## ${heading}"`).toBeGreaterThan(section);
	const rows: string[][] = [];
	for (const line of lines.slice(start + 2)) {
		if (!line.startsWith('|')) break;
		rows.push(line.split(/(?<!\\)\|/).slice(1, -1).map((cell) => cell.trim()));
	}
	return rows;
}

/** The flags a usage text lists: its lines that start with two spaces and `--name`. */
const usageFlags = (usage: string): string[] => [...usage.matchAll(/^ {2}(--[a-z-]+)/gm)].map((m) => m[1]).sort();
/** The flag each row of a flag table names (its first cell starts with it). */
const rowFlags = (rows: string[][]): string[] => rows.map((cells) => /^`(--[a-z-]+)/.exec(cells[0])?.[1] ?? `(no flag: ${cells[0]})`).sort();

/**
 * The routes a table's first cell names: `` `GET /__mock/clock` ``; methods ahead of one path (`` `GET`, `PUT`, `DELETE /a/{id}` ``);
 * a bare path is the last path's sibling with its methods (`` `POST /a/find`, `/count` `` is /a/find and /a/count); parentheses
 * (query parameters, bodies) are not routes.
 */
function routesOf(cell: string): string[] {
	const routes: string[] = [];
	let methods: string[] = [];
	let last: { methods: string[]; path: string } | undefined;
	for (const [, token] of cell.replace(/\([^)]*\)/g, '').matchAll(/`([^`]+)`/g)) {
		const named = /^(?:(GET|POST|PUT|DELETE) )?(\/\S*)$/.exec(token);
		if (/^(GET|POST|PUT|DELETE)$/.test(token)) methods.push(token);
		else if (named?.[1]) {
			last = { methods: [...methods, named[1]], path: named[2] };
			routes.push(...last.methods.map((method) => `${method} ${last!.path}`));
			methods = [];
		} else if (named && last) {
			const sibling = last.path.replace(/\/[^/]+$/, named[2]);
			routes.push(...last.methods.map((method) => `${method} ${sibling}`));
		} else throw new Error(`"${token}" in "${cell}" is neither a method nor a route`);
	}
	return routes;
}

describe("mock-server/README.md's flag tables", () => {
	it('the CLI: a row for every flag --help prints, and no row for a flag it lacks', () => {
		const rows = rowFlags(tableRows('Run it', '| flag |'));
		expect(rows.length).toBeGreaterThan(15);
		expect(rows, 'the README\'s flag table (## Run it) against USAGE in src/cli-flags.mts').toEqual(usageFlags(USAGE));
	});

	it('record: a row for every flag `record --help` prints, and no row for a flag it lacks', () => {
		const rows = rowFlags(tableRows('Clone a real account', '| flag |'));
		expect(rows.length).toBeGreaterThanOrEqual(5);
		expect(rows, 'the README\'s record flag table against CLONE_USAGE in src/clone/flags.mts').toEqual(usageFlags(CLONE_USAGE));
	});

	it('every flag the usages print is one the parsers take (not "Unknown flag")', () => {
		for (const flag of usageFlags(USAGE)) {
			try {
				parseFlags([flag]);
			} catch (error) {
				expect(error, flag).toBeInstanceOf(FlagError);
				expect((error as Error).message, flag).not.toMatch(/^Unknown flag/);
			}
		}
		for (const flag of usageFlags(CLONE_USAGE)) {
			try {
				parseCloneFlags([flag], {});
			} catch (error) {
				expect(error, flag).toBeInstanceOf(CloneFlagError);
				expect((error as Error).message, flag).not.toMatch(/^Unknown flag/);
			}
		}
		expect(() => parseFlags(['--no-such-flag'])).toThrow(/^Unknown flag --no-such-flag$/);
		expect(() => parseCloneFlags(['--no-such-flag'], {})).toThrow(/^Unknown flag --no-such-flag$/);
	});
});

describe("mock-server/README.md's route tables", () => {
	it('reads a cell as its routes', () => {
		expect(routesOf('`GET`, `PUT`, `DELETE /__admin/mappings/{id}`')).toEqual(['GET /__admin/mappings/{id}', 'PUT /__admin/mappings/{id}', 'DELETE /__admin/mappings/{id}']);
		expect(routesOf('`POST /__admin/requests/find`, `/count`, `/remove` (body: a request pattern)')).toEqual(['POST /__admin/requests/find', 'POST /__admin/requests/count', 'POST /__admin/requests/remove']);
		expect(routesOf('`GET /__admin/requests` (`limit`, `since`: ISO 8601)')).toEqual(['GET /__admin/requests']);
		expect(() => routesOf('`PATCH /x`')).toThrow(/neither a method nor a route/);
	});

	it('the Control API and WireMock tables name exactly the /__mock and /__admin routes the mock registers', async () => {
		const mock = await createMockService(SMALL);
		try {
			const registered = [...mock.routes, ...mock.wiremock.routes]
				.filter(({ info }) => typeof info.method === 'string')
				.map(({ info }) => `${String(info.method)} ${String(info.path).replace(/^\*/, '').replace(/:(\w+)/g, '{$1}')}`)
				.filter((route) => / \/__(mock|admin)\//.test(route));
			const documented = [
				...tableRows('Control API', '| method and path |'),
				...tableRows('WireMock admin API', '| served |'),
			].flatMap((cells) => routesOf(cells[0]));
			expect(registered.length).toBeGreaterThan(30);
			// The page and the front door are no routes: the standalone server answers them itself (server.mts).
			const page = (route: string) => {
				const [method, path] = route.split(' ');
				return (isPagePath(path) && pageAnswer(method).status === 200) || (path === ROOT_PATH && rootAnswer(method, 'http://127.0.0.1:4010', null).status === 200);
			};
			expect([...new Set(documented)].filter((route) => !page(route)).sort(), 'the README\'s Control API and WireMock "served" tables against the routes').toEqual([...new Set(registered)].sort());
			expect(documented.length, 'a route with two rows').toBe(new Set(documented).size);
		} finally {
			mock.close();
		}
	});

	it('the Control API table has a row for every control path of the contract, those the server answers outside the routes too (the page)', () => {
		const documented = new Set(tableRows('Control API', '| method and path |').flatMap((cells) => routesOf(cells[0])).map((route) => route.split(' ')[1]));
		const paths = Object.values(MOCK_CONTROL_PATHS).map((path) => path.replace(/:(\w+)/g, '{$1}'));
		expect(paths.filter((path) => !documented.has(path)), 'paths of MOCK_CONTROL_PATHS (contract/api.ts) without a row').toEqual([]);
	});
});
