/**
 * The house's rules (docs/architecture.md), held to the imports the code really has:
 * read from every source file of the checkout by harness/import-graph.mts.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph, type ImportEdge } from '../harness/import-graph.mts';

const { edges, packages, unresolved } = importGraph(resolve(import.meta.dirname, '..'));
const under = (folder: string) => (file: string) => file.startsWith(`${folder}/`);
const offenders = (from: (file: string) => boolean, to: (file: string) => boolean, among: ImportEdge[] = edges): string[] =>
	among.filter((edge) => from(edge.from) && to(edge.to)).map(({ from: a, to: b }) => `${a} -> ${b}`);
const anyOf = (...folders: string[]) => (file: string) => folders.some((folder) => under(folder)(file));
const not = (test: (file: string) => boolean) => (file: string) => !test(file);
const NODE_FOLDERS = ['nodes/JobSignals', 'nodes/JobSignalsTrigger', 'nodes/JobSignalsPollTrigger'];
const MOCK_PACKAGE = 'job-signals-mock-server';
/** A file's folder directly inside `root`, or the file itself when it lies in `root` (undefined outside it). */
const roomIn = (root: string) => (file: string) => (under(root)(file) ? file.split('/').slice(0, root.split('/').length + 1).join('/') : undefined);

/**
 * The mock's floors, top down: docs/architecture.md shows this list as its floor map (the last case below holds the two the same).
 * A room is a folder of mock-server/src/ or a file directly in it; a file may import its own floor and those below.
 */
const MOCK_FLOORS = [
	{ floor: 'entry points', rooms: ['index.mts', 'contract.mts', 'cli.mts', 'cli-main.mts', 'cli-flags.mts', 'server.mts', 'service.mts', 'options.mts'], holds: 'the package entries (tsup), the CLI, the standalone server, the in-process service and its options' },
	{ floor: 'features', rooms: ['handlers', 'clock', 'receiver-knobs', 'cycles', 'wiremock', 'clone', 'page', 'openapi', 'state', 'standalone'], holds: "one folder a feature: the service API routes, the clock routes, the receiver knobs, cycles, the WireMock API, the account clone (the CLI's `record`), the page, the OpenAPI documents, the state folder, Node HTTP plumbing" },
	{ floor: 'core', rooms: ['http', 'data', 'search', 'webhooks'], holds: 'request handling shared by every route, the stateful data, the job search index, webhook delivery' },
	{ floor: 'base', rooms: ['base', 'package-version.mts'], holds: "the clock, the Node check, the event-loop slicer, the mock's version, and the door to contract/ (base/contract.mts)" },
] as const;
const MOCK_CONTRACT_DOOR = 'mock-server/src/base/contract.mts';
/** The package's public `/contract` entry: a door out for other projects, which re-exports contract/index as published. */
const MOCK_PUBLIC_CONTRACT = 'mock-server/src/contract.mts';
const MOCK_SRC = 'mock-server/src';
/** The floor (0 = top) of a file of mock-server/src/, or undefined when its room is on no floor. */
const floorOf = (file: string): number | undefined => {
	const room = roomIn(MOCK_SRC)(file)?.slice(MOCK_SRC.length + 1);
	const floor = MOCK_FLOORS.findIndex(({ rooms }) => (rooms as readonly string[]).includes(room ?? ''));
	return floor < 0 ? undefined : floor;
};

describe('the import rules of the house', () => {
	it('reads every import, of .mts files and through package names too (a rule over unread imports would hold by accident)', () => {
		expect(edges.length).toBeGreaterThan(500);
		expect(unresolved.filter(({ from }) => !from.startsWith('mock-server/scripts/'))).toEqual([]);
		expect(edges.filter(({ from, to }) => from.endsWith('.mts') && to.endsWith('.mts')).length).toBeGreaterThan(300);
		expect(edges.filter(({ specifier }) => specifier === MOCK_PACKAGE).length).toBeGreaterThan(5);
		expect(packages.filter(({ specifier, names }) => specifier === 'msw' && names.includes('http')).length).toBeGreaterThan(3);
	});

	it('the shipped package stands on the contract and itself only: nothing under nodes/ or credentials/ imports the mock, the harness, tests, benchmarks or scripts', () => {
		expect(offenders(anyOf('nodes', 'credentials'), anyOf('mock-server', 'harness', 'test', 'bench', 'scripts'))).toEqual([]);
	});

	it('the nodes reach the contract through one door, nodes/shared/contract.ts', () => {
		expect(offenders(anyOf('nodes'), (file) => under('contract')(file)).filter((edge) => !edge.startsWith('nodes/shared/contract.ts ->'))).toEqual([]);
	});

	it('the contract is the ground floor: it imports nothing of the repository outside itself', () => {
		expect(offenders(under('contract'), (file) => !under('contract')(file))).toEqual([]);
	});

	it('the mock stands on the contract and itself: its shipped src/ imports nothing else', () => {
		expect(offenders(under('mock-server/src'), (file) => !anyOf('mock-server/src', 'contract')(file))).toEqual([]);
	});

	it("every file of the mock's src/ lies on one of its floors, and none imports up a floor (entry points, features, core, base)", () => {
		const mockFiles = [...new Set(edges.flatMap(({ from, to }) => [from, to]))].filter(under(MOCK_SRC));
		expect(mockFiles.filter((file) => floorOf(file) === undefined)).toEqual([]);
		const upward = edges.filter(({ from, to }) => under(MOCK_SRC)(from) && under(MOCK_SRC)(to) && floorOf(to)! < floorOf(from)!);
		expect(upward.map(({ from, to }) => `${from} (${MOCK_FLOORS[floorOf(from)!].floor}) -> ${to} (${MOCK_FLOORS[floorOf(to)!].floor})`)).toEqual([]);
	});

	it(`the mock reaches contract/ through one door, ${MOCK_CONTRACT_DOOR}; only the public /contract entry re-exports it outward, and nothing in src/ but index.mts imports that entry`, () => {
		expect(offenders(under(MOCK_SRC), under('contract')).filter((edge) => ![MOCK_CONTRACT_DOOR, MOCK_PUBLIC_CONTRACT].some((door) => edge.startsWith(`${door} ->`)))).toEqual([]);
		expect(offenders(under(MOCK_SRC), (file) => file === MOCK_PUBLIC_CONTRACT).filter((edge) => !edge.startsWith(`${MOCK_SRC}/index.mts ->`))).toEqual([]);
		expect(edges.filter(({ from, to }) => under(MOCK_SRC)(from) && to === MOCK_CONTRACT_DOOR).length).toBeGreaterThan(40);
	});

	it(`the mock's tests and benchmarks reach contract/ through the same door, ${MOCK_CONTRACT_DOOR}, as its src/ does`, () => {
		const testsAndBenches = anyOf('mock-server/test', 'mock-server/bench');
		expect(offenders(testsAndBenches, under('contract'))).toEqual([]);
		expect(edges.filter(({ from, to }) => testsAndBenches(from) && to === MOCK_CONTRACT_DOOR).length).toBeGreaterThan(40);
	});

	it("docs/architecture.md's floor map of the mock is this file's MOCK_FLOORS, row for row", () => {
		const room = (name: string) => (name.includes('.') ? `\`${name}\`` : `\`${name}/\``);
		const table = ['| floor | rooms (in `mock-server/src/`) | holds |', '| --- | --- | --- |', ...MOCK_FLOORS.map(({ floor, rooms, holds }) => `| ${floor} | ${rooms.map(room).join(' ')} | ${holds} |`)].join('\n');
		expect(readFileSync(resolve(import.meta.dirname, '../docs/architecture.md'), 'utf8')).toContain(table);
	});

	it('the mock package stands alone: nothing in mock-server/ (its source, tests, benchmarks, scripts) imports anything of the repository but mock-server/ and contract/', () => {
		expect(offenders(under('mock-server'), not(anyOf('mock-server', 'contract')))).toEqual([]);
	});

	it("nothing outside mock-server/ imports the mock's tests or benchmarks", () => {
		expect(offenders(not(under('mock-server')), anyOf('mock-server/test', 'mock-server/bench'))).toEqual([]);
	});

	it(`outside mock-server/ the mock is used only through its package's public entry (\`${MOCK_PACKAGE}\`, resolved through its "exports"), as another project would: no path into mock-server/`, () => {
		const byPath = edges.filter(({ specifier }) => specifier.startsWith('.'));
		expect(offenders(not(under('mock-server')), under('mock-server'), byPath)).toEqual([]);
	});

	it('no import cycles in the mock (mock-server/src/) or in the nodes (nodes/): neither between files nor between the folders directly inside them', () => {
		for (const root of ['mock-server/src', 'nodes']) {
			expect(importCycles(edges, (file) => (under(root)(file) ? file : undefined)), `files of ${root}/`).toEqual([]);
			expect(importCycles(edges, roomIn(root)), `folders of ${root}/`).toEqual([]);
		}
	});

	it("one way to wire a route in the mock: each handlers/ file that answers requests builds its routes with http/route.mts (apiRoute, appRoute: they take the HandlerContext); only the mock's own routes (handlers/control.mts, handlers/openapi.mts, WireMock's admin API in wiremock/admin-routes.mts) and the routing itself take msw's `http`", () => {
		const src = 'mock-server/src';
		const answering = new Set(packages.filter(({ from, specifier }) => under(`${src}/handlers`)(from) && specifier === 'msw').map(({ from }) => from));
		const own = [`${src}/handlers/control.mts`, `${src}/handlers/openapi.mts`];
		const routed = new Set(edges.filter(({ to }) => to === `${src}/http/route.mts`).map(({ from }) => from));
		expect([...answering].filter((file) => !own.includes(file) && !routed.has(file))).toEqual([]);
		const takesHttp = packages.filter(({ from, specifier, names }) => under(src)(from) && specifier === 'msw' && names.includes('http')).map(({ from }) => from);
		expect(takesHttp.filter((file) => ![...own, `${src}/wiremock/admin-routes.mts`, `${src}/http/route.mts`, `${src}/http/with-cors.mts`].includes(file))).toEqual([]);
	});

	it('no node imports another node: the three share nodes/shared, and nodes/shared imports no node', () => {
		for (const node of NODE_FOLDERS) {
			const others = NODE_FOLDERS.filter((folder) => folder !== node);
			expect(offenders(under(node), anyOf(...others))).toEqual([]);
		}
		expect(offenders(under('nodes/shared'), anyOf(...NODE_FOLDERS))).toEqual([]);
	});

	it('no trigger and no shared file imports an operation file', () => {
		expect(offenders((file) => !under('nodes/JobSignals')(file), (file) => file.endsWith('.operation.ts'))).toEqual([]);
	});

	it('scripts/, bench/ and test/ never import each other; the harness imports none of them', () => {
		const rooms = ['scripts', 'bench', 'test'];
		for (const room of rooms) expect(offenders(under(room), anyOf(...rooms.filter((other) => other !== room)))).toEqual([]);
		expect(offenders(under('harness'), anyOf(...rooms))).toEqual([]);
	});
});
