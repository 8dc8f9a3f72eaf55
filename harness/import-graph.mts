/**
 * The repository's import graph, read from the source with TypeScript's parser (so an import in a
 * comment or a string is no import, and one over several lines is one): every import of every
 * TypeScript/JavaScript file (.ts, .mts, .cjs, .mjs) — static (`import … from`, `export … from`,
 * `import x = require()`), dynamic (`import()`), `require()`, `typeof import()` types and vi.mock —
 * whose module is a string literal. test/architecture.test.mts holds the house's rules to it;
 * scripts/import-graph.mts prints it.
 *
 * - A relative import is an edge to the file it resolves to.
 * - An import of a package of this repository (the root's or a workspace's name, e.g.
 *   `job-signals-mock-server` or `job-signals-mock-server/contract`) is an edge too, resolved as
 *   another project would resolve it: through the package's "exports" (else "main") to the file named
 *   there, and from a built file (`dist/<name>.js`) to its source (`src/<name>.mts`), so the arrow
 *   points at the code it runs. Its `specifier` says it came through the package's name.
 * - Any other package (`msw`, `node:fs`) is a `packages` entry, with the names imported from it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import ts from 'typescript';

export interface ImportEdge {
	from: string;
	to: string;
	/** The module as written: a relative path (`../../contract/api`) or a package name of this repository. */
	specifier: string;
}

export interface PackageImport {
	from: string;
	/** The module as written, e.g. `msw`, `msw/node`, `node:fs`. */
	specifier: string;
	/** The names a static import takes from it (`default` and `*` for those forms); empty for a bare or dynamic import. */
	names: string[];
}

const SOURCE = /\.(ts|mts|cjs|mjs)$/;
const SKIP = new Set(['node_modules', 'dist', '.git', '.cache']);
const EXTENSIONS = ['', '.ts', '.mts', '.js', '.mjs', '.cjs', '/index.ts'];
const MOCKING_CALLS = new Set(['mock', 'doMock', 'importActual', 'importMock']);

function sourceFiles(root: string, folder = ''): string[] {
	return readdirSync(join(root, folder)).flatMap((name) => {
		if (SKIP.has(name) || name.startsWith('.')) return [];
		const path = join(folder, name);
		if (statSync(join(root, path)).isDirectory()) return sourceFiles(root, path);
		return SOURCE.test(name) ? [path] : [];
	});
}

const isFile = (path: string) => existsSync(path) && statSync(path).isFile();

function resolveRelative(root: string, from: string, specifier: string): string | undefined {
	const base = join(dirname(from), specifier);
	for (const extension of EXTENSIONS) {
		const candidate = base + extension;
		if (isFile(join(root, candidate))) return relative('.', candidate);
	}
	return undefined;
}

interface LocalPackage {
	folder: string;
	exports?: Record<string, unknown>;
	main?: string;
}

/** The root's package and its workspaces, by name. */
function localPackages(root: string): Map<string, LocalPackage> {
	const packages = new Map<string, LocalPackage>();
	const read = (folder: string) => {
		const file = join(root, folder, 'package.json');
		if (!isFile(file)) return undefined;
		const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; exports?: unknown; main?: string; workspaces?: string[] };
		if (manifest.name !== undefined) {
			const exports = typeof manifest.exports === 'object' && manifest.exports !== null ? (manifest.exports as Record<string, unknown>) : undefined;
			packages.set(manifest.name, { folder, exports, main: manifest.main });
		}
		return manifest;
	};
	for (const workspace of read('')?.workspaces ?? []) read(workspace);
	return packages;
}

/** The file an "exports" entry names for an import (its `import` or `default` condition, or the string itself). */
function exportTarget(entry: unknown): string | undefined {
	if (typeof entry === 'string') return entry;
	if (typeof entry !== 'object' || entry === null) return undefined;
	const conditions = entry as Record<string, unknown>;
	return exportTarget(conditions.import ?? conditions.default);
}

function resolvePackage(root: string, packages: Map<string, LocalPackage>, specifier: string): string | undefined | null {
	const name = [...packages.keys()].find((known) => specifier === known || specifier.startsWith(`${known}/`));
	if (name === undefined) return null;
	const { folder, exports, main } = packages.get(name)!;
	const subpath = `.${specifier.slice(name.length)}`;
	const target = exports ? exportTarget(exports[subpath]) : subpath === '.' ? main : subpath;
	if (target === undefined) return undefined;
	const built = normalize(join(folder, target));
	const source = built.replace(/(^|\/)dist\/([^/]+)\.js$/, '$1src/$2.mts');
	if (isFile(join(root, source))) return source;
	return isFile(join(root, built)) ? built : undefined;
}

/** Every import of one file: its module as written and, for a static import, the names it takes. */
function importsOf(path: string, text: string): { specifier: string; names: string[] }[] {
	const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, path.endsWith('ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS);
	const found: { specifier: string; names: string[] }[] = [];
	const literal = (node: ts.Node | undefined) => (node !== undefined && ts.isStringLiteralLike(node) ? node.text : undefined);
	const visit = (node: ts.Node) => {
		if (ts.isImportDeclaration(node)) {
			const clause = node.importClause;
			const names: string[] = [];
			if (clause?.name) names.push('default');
			const bindings = clause?.namedBindings;
			if (bindings && ts.isNamespaceImport(bindings)) names.push('*');
			if (bindings && ts.isNamedImports(bindings)) for (const element of bindings.elements) names.push((element.propertyName ?? element.name).text);
			const specifier = literal(node.moduleSpecifier);
			if (specifier !== undefined) found.push({ specifier, names });
		} else if (ts.isExportDeclaration(node)) {
			const specifier = literal(node.moduleSpecifier);
			if (specifier !== undefined) found.push({ specifier, names: [] });
		} else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
			const specifier = literal(node.moduleReference.expression);
			if (specifier !== undefined) found.push({ specifier, names: [] });
		} else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
			const specifier = literal(node.argument.literal);
			if (specifier !== undefined) found.push({ specifier, names: [] });
		} else if (ts.isCallExpression(node)) {
			const callee = node.expression;
			const imports =
				callee.kind === ts.SyntaxKind.ImportKeyword ||
				(ts.isIdentifier(callee) && callee.text === 'require') ||
				(ts.isPropertyAccessExpression(callee) && MOCKING_CALLS.has(callee.name.text));
			const specifier = imports ? literal(node.arguments[0]) : undefined;
			if (specifier !== undefined) found.push({ specifier, names: [] });
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

export function importGraph(root: string): { files: string[]; edges: ImportEdge[]; packages: PackageImport[]; unresolved: ImportEdge[] } {
	const files = sourceFiles(root);
	const local = localPackages(root);
	const edges: ImportEdge[] = [];
	const packages: PackageImport[] = [];
	const unresolved: ImportEdge[] = [];
	for (const from of files) {
		for (const { specifier, names } of importsOf(from, readFileSync(join(root, from), 'utf8'))) {
			const to = specifier.startsWith('.') ? resolveRelative(root, from, specifier) : resolvePackage(root, local, specifier);
			if (to === null) packages.push({ from, specifier, names });
			else if (to === undefined) unresolved.push({ from, to: specifier, specifier });
			else edges.push({ from, to, specifier });
		}
	}
	return { files, edges, packages, unresolved };
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

/**
 * The import cycles among groups of files (a file's group: `groupOf(file)`, the file itself or its
 * folder; undefined leaves the file out): each set of two or more groups that import each other,
 * directly or around, as the arrows inside it ("a -> b"), sorted.
 */
export function importCycles(edges: ImportEdge[], groupOf: (file: string) => string | undefined): string[][] {
	const next = new Map<string, Set<string>>();
	for (const { from, to } of edges) {
		const [a, b] = [groupOf(from), groupOf(to)];
		if (a === undefined || b === undefined || a === b) continue;
		if (!next.has(a)) next.set(a, new Set());
		if (!next.has(b)) next.set(b, new Set());
		next.get(a)!.add(b);
	}
	// Tarjan's strongly connected components.
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const onStack = new Set<string>();
	const cycles: string[][] = [];
	const connect = (group: string) => {
		index.set(group, index.size);
		low.set(group, index.get(group)!);
		stack.push(group);
		onStack.add(group);
		for (const other of next.get(group)!) {
			if (!index.has(other)) {
				connect(other);
				low.set(group, Math.min(low.get(group)!, low.get(other)!));
			} else if (onStack.has(other)) low.set(group, Math.min(low.get(group)!, index.get(other)!));
		}
		if (low.get(group) !== index.get(group)) return;
		const component: string[] = [];
		let member: string;
		do {
			member = stack.pop()!;
			onStack.delete(member);
			component.push(member);
		} while (member !== group);
		if (component.length > 1) cycles.push(component.flatMap((a) => [...next.get(a)!].filter((b) => component.includes(b)).map((b) => `${a} -> ${b}`)).sort());
	};
	for (const group of next.keys()) if (!index.has(group)) connect(group);
	return cycles;
}
