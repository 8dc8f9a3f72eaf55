/**
 * The repository's import graph, read from the source: every relative import
 * (static, dynamic, require, vi.mock) of every TypeScript/JavaScript file, as
 * file → file edges, and the rooms (folders) they join. test/architecture.test.mts
 * holds the house's rules to it; scripts/import-graph.mts prints it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

export interface ImportEdge {
	from: string;
	to: string;
}

const SOURCE = /\.(ts|mts|cjs|mjs)$/;
const SKIP = new Set(['node_modules', 'dist', '.git', '.cache']);
const SPECIFIER = /(?:\bfrom|\bimport|\brequire|\bmock)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;
const EXTENSIONS = ['', '.ts', '.mts', '.js', '.mjs', '.cjs', '/index.ts'];

function sourceFiles(root: string, folder = ''): string[] {
	return readdirSync(join(root, folder)).flatMap((name) => {
		if (SKIP.has(name) || name.startsWith('.')) return [];
		const path = join(folder, name);
		if (statSync(join(root, path)).isDirectory()) return sourceFiles(root, path);
		return SOURCE.test(name) ? [path] : [];
	});
}

function resolveSpecifier(root: string, from: string, specifier: string): string | undefined {
	const base = join(dirname(from), specifier);
	for (const extension of EXTENSIONS) {
		const candidate = base + extension;
		if (existsSync(join(root, candidate)) && statSync(join(root, candidate)).isFile()) return relative('.', candidate);
	}
	return undefined;
}

export function importGraph(root: string): { files: string[]; edges: ImportEdge[]; unresolved: ImportEdge[] } {
	const files = sourceFiles(root);
	const edges: ImportEdge[] = [];
	const unresolved: ImportEdge[] = [];
	for (const from of files) {
		for (const match of readFileSync(join(root, from), 'utf8').matchAll(SPECIFIER)) {
			const to = resolveSpecifier(root, from, match[1]);
			if (to) edges.push({ from, to });
			else unresolved.push({ from, to: match[1] });
		}
	}
	return { files, edges, unresolved };
}

/** The room a file stands in: the top folder, or the top two where a folder holds several rooms. */
export function roomOf(file: string): string {
	const parts = file.split('/');
	if (parts.length === 1) return '(root)';
	if (['nodes', 'harness', 'mock-server'].includes(parts[0]) && parts.length > 2) return `${parts[0]}/${parts[1]}`;
	return parts[0];
}

/** Room → room arrow counts, e.g. "nodes/JobSignals -> nodes/shared": 31. */
export function roomArrows(edges: ImportEdge[]): Map<string, number> {
	const arrows = new Map<string, number>();
	for (const { from, to } of edges) {
		const key = `${roomOf(from)} -> ${roomOf(to)}`;
		if (roomOf(from) !== roomOf(to)) arrows.set(key, (arrows.get(key) ?? 0) + 1);
	}
	return new Map([...arrows].sort(([a], [b]) => a.localeCompare(b)));
}
