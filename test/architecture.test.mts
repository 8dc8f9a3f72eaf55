/**
 * The house's rules (docs/architecture.md), held to the imports the code really has:
 * read from every source file of the checkout by harness/import-graph.mts.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGraph, type ImportEdge } from '../harness/import-graph.mts';

const { edges, unresolved } = importGraph(resolve(import.meta.dirname, '..'));
const under = (folder: string) => (file: string) => file.startsWith(`${folder}/`);
const offenders = (from: (file: string) => boolean, to: (file: string) => boolean): string[] =>
	edges.filter((edge: ImportEdge) => from(edge.from) && to(edge.to)).map(({ from: a, to: b }) => `${a} -> ${b}`);
const anyOf = (...folders: string[]) => (file: string) => folders.some((folder) => under(folder)(file));
const NODE_FOLDERS = ['nodes/JobSignals', 'nodes/JobSignalsTrigger', 'nodes/JobSignalsPollTrigger'];

describe('the import rules of the house', () => {
	it('reads every relative import (a rule over unread imports would hold by accident)', () => {
		expect(edges.length).toBeGreaterThan(500);
		expect(unresolved.filter(({ from }) => !from.startsWith('mock-server/scripts/'))).toEqual([]);
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
