/**
 * Every pointer a comment makes leads somewhere that exists. Read from the comments of every source file
 * of the checkout (the nodes, the credential, the contract, the mock, the harness, the tests, the
 * benchmarks, the scripts, the examples and the root's vitest and eslint configs):
 * - a document, with the sections it names in quotes: `docs/<page>.md`, `docs/<page>.md, "<Section>"`,
 *   `(docs/<page>.md, "<Section>" and "<Other>")`, `mock-server/<doc>.md's "<Section>"`, `README's "<Section>"`,
 *   `README, "<Section>"`, `README ("<Section>")`, `README under "<Section>"`. A bare README is the README.md of
 *   the file's folder or of one of its ancestors, up to the repository's root; a quoted section must be a
 *   heading of that file (compared in any case, without leading #s or trailing punctuation; a heading
 *   `Name (more)` or `Name: more` also answers to "Name"). A section written `"<…>"` is a placeholder.
 * - a file, by a path with a slash that ends in .md, .ts, .mts, .mjs, .cjs or .json. It is looked for from
 *   the repository's root, then from the pointing file's folder and each of its ancestors, so a short form
 *   such as `transport/<file>.ts` written in nodes/shared/ finds the file in nodes/shared/transport/.
 *   Built and installed files (dist/, node_modules/) are not checked.
 * - a file by its bare name (`harness.mts`, `package.json`): going up from the pointing file's folder to the
 *   root, the first folder that holds a file of that name, or else holds exactly one somewhere under it;
 *   two under the nearest folder that holds any is ambiguous and reported. A name with a `<…>`
 *   placeholder or a `*` is a pattern, not a pointer.
 * A file that is not there but whose .ts/.mts twin is, is reported with the twin's name.
 */
import { readdirSync } from 'node:fs';
import { join, posix } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { hasSection, readRepoFile, REPO_ROOT } from './markdown.mts';

/** The folders whose source files are read (dist/ and node_modules/ left out), and the root's configs. */
const SOURCE_FOLDERS = ['nodes', 'credentials', 'contract', 'mock-server', 'harness', 'test', 'bench', 'scripts', 'examples'];
const ROOT_CONFIG = /^(vitest|eslint)\b.*\.(ts|mts|mjs|cjs)$/;
const SOURCE = /\.(ts|mts|mjs|cjs)$/;

function sourceFiles(): string[] {
	const files: string[] = [];
	const walk = (folder: string) => {
		for (const entry of readdirSync(join(REPO_ROOT, folder), { withFileTypes: true })) {
			if (entry.name === 'node_modules' || entry.name === 'dist') continue;
			const path = posix.join(folder, entry.name);
			if (entry.isDirectory()) walk(path);
			else if (SOURCE.test(entry.name)) files.push(path);
		}
	};
	for (const folder of SOURCE_FOLDERS) walk(folder);
	for (const entry of readdirSync(REPO_ROOT)) if (ROOT_CONFIG.test(entry)) files.push(entry);
	return files;
}

/** A comment's text with its markers (`//`, `/*`, `*` at a line's start, `*\/`) blanked, so offsets still map to lines. */
function blankMarkers(comment: string): string {
	if (comment.startsWith('//')) return comment.replace(/^\/\/+/, (m) => ' '.repeat(m.length));
	return comment
		.replace(/^\/\*+/, (m) => ' '.repeat(m.length))
		.replace(/\*+\/$/, (m) => ' '.repeat(m.length))
		.replace(/\n([ \t]*)\*(?!\/)/g, (_, indent: string) => `\n${indent} `);
}

/** Every comment of a source file, as { offset in the file, text without markers }; line comments in a row make one. */
export function commentsOf(path: string, text: string): { offset: number; text: string }[] {
	const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
	const ranges = new Map<number, ts.CommentRange>();
	const visit = (node: ts.Node) => {
		for (const range of ts.getLeadingCommentRanges(text, node.getFullStart()) ?? []) ranges.set(range.pos, range);
		for (const range of ts.getTrailingCommentRanges(text, node.getEnd()) ?? []) ranges.set(range.pos, range);
		for (const child of node.getChildren(source)) visit(child);
	};
	visit(source);
	const comments: { offset: number; text: string; end: number; line: boolean }[] = [];
	for (const range of [...ranges.values()].sort((a, b) => a.pos - b.pos)) {
		const raw = text.slice(range.pos, range.end);
		const line = range.kind === ts.SyntaxKind.SingleLineCommentTrivia;
		const previous = comments.at(-1);
		const between = previous && text.slice(previous.end, range.pos);
		if (previous?.line && line && between !== undefined && /^[ \t]*\r?\n[ \t]*$/.test(between)) {
			previous.text += between + blankMarkers(raw);
			previous.end = range.end;
		} else comments.push({ offset: range.pos, text: blankMarkers(raw), end: range.end, line });
	}
	return comments.map(({ offset, text: comment }) => ({ offset, text: comment }));
}

export interface Pointer {
	/** `path:line` of the comment that makes it. */
	where: string;
	/** The pointer as written (whitespace collapsed). */
	written: string;
	/** The file it names, as written: `README`, `docs/<page>.md`, `transport/<file>.ts`. */
	target: string;
	/** The sections it names in quotes (documents only). */
	sections: string[];
}

const FILE = String.raw`(?<![\w./@~*<>{}$-])(?:README(?:\.md)?(?!\w|-|\.\w)|(?:[\w.-]+/)*[\w-][\w.-]*\.(?:md|ts|mts|mjs|cjs|json)(?![\w-]|[*<{]))`;
const QUOTED = String.raw`["“][^"”]+["”]`;
/** What may stand between a document and its first quoted section: `'s`, a comma, `under`, a parenthesis. */
const SECTIONS = new RegExp(String.raw`^(?:['’]s\s+|\s*,\s*|\s+under\s+|\s*)\(?\s*(${QUOTED}(?:\s*(?:,|,?\s*and|,?\s*or)\s*${QUOTED})*)`);
const POINTER = new RegExp(FILE, 'g');
const DOCUMENT = /(^|\/)README(\.md)?$|\.md$/;
const PLACEHOLDER = /^<.*>$/;
const NOT_CHECKED = /^(dist|node_modules)\/|\/(dist|node_modules)\//;

/** The pointers the comments of one source file make. */
export function pointersIn(path: string, text: string): Pointer[] {
	const pointers: Pointer[] = [];
	for (const comment of commentsOf(path, text)) {
		for (const match of comment.text.matchAll(POINTER)) {
			const target = match[0];
			if (NOT_CHECKED.test(target)) continue;
			const after = DOCUMENT.test(target) ? SECTIONS.exec(comment.text.slice(match.index + target.length)) : null;
			const sections = after ? [...after[1].matchAll(new RegExp(QUOTED, 'g'))].map(([quoted]) => quoted.slice(1, -1).replace(/\s+/g, ' ').trim()) : [];
			const line = text.slice(0, comment.offset + match.index).split('\n').length;
			const written = (target + (after?.[0] ?? '')).replace(/\s+/g, ' ');
			pointers.push({ where: `${path}:${line}`, written, target, sections });
		}
	}
	return pointers;
}

/** The pointing file's folder and each of its ancestors, nearest first, ending with the root ('.'). */
function foldersUp(from: string): string[] {
	const folders: string[] = [];
	for (let folder = posix.dirname(from); ; folder = posix.dirname(folder)) {
		folders.push(folder);
		if (folder === '.') return folders;
	}
}

/**
 * The repository files a pointer's file may be. README: the nearest README.md up from the pointing file. A
 * path: from the root, then from the pointing file's folder and its ancestors. A bare name: the one in the
 * nearest folder up from the pointing file, else the ones under the nearest folder that holds any.
 */
function resolve(from: string, target: string, files: ReadonlySet<string>): string[] {
	const folders = foldersUp(from);
	if (/^README(\.md)?$/.test(target)) return folders.map((folder) => posix.join(folder, 'README.md')).filter((path) => files.has(path));
	if (target.includes('/')) return [...new Set(['.', ...folders].map((folder) => posix.join(folder, target)))].filter((path) => files.has(path));
	const named = [...files].filter((path) => posix.basename(path) === target);
	for (const folder of folders) {
		const here = posix.join(folder, target);
		if (files.has(here)) return [here];
		const under = named.filter((path) => folder === '.' || path.startsWith(`${folder}/`));
		if (under.length > 0) return under;
	}
	return [];
}

/** The same name with .ts for .mts and back. */
const twin = (target: string) => target.replace(/\.(m?)ts$/, (_, m: string) => (m ? '.ts' : '.mts'));

/** Every file of the checkout but dist/, node_modules/ and .git/, by its path from the root. */
export function repoFiles(): Set<string> {
	const files = new Set<string>();
	const walk = (folder: string) => {
		for (const entry of readdirSync(join(REPO_ROOT, folder), { withFileTypes: true })) {
			if (['node_modules', 'dist', '.git'].includes(entry.name)) continue;
			const path = folder === '.' ? entry.name : posix.join(folder, entry.name);
			if (entry.isDirectory()) walk(path);
			else files.add(path);
		}
	};
	walk('.');
	return files;
}

/** What is wrong with a pointer made in the file `from`, or undefined when it leads somewhere that exists. */
export function stale(from: string, pointer: Pointer, files: ReadonlySet<string>, read = readRepoFile): string | undefined {
	const found = resolve(from, pointer.target, files);
	if (found.length === 0) {
		const other = twin(pointer.target);
		const hint = other !== pointer.target && resolve(from, other, files).length > 0 ? ` (${other} is)` : '';
		return `${pointer.where}: ${pointer.written} — no file ${pointer.target}${hint}`;
	}
	if (!pointer.target.includes('/') && !/^README(\.md)?$/.test(pointer.target) && found.length > 1) {
		return `${pointer.where}: ${pointer.written} — ${pointer.target} is ambiguous: ${found.join(', ')}; give its folder`;
	}
	const missing = pointer.sections.filter((section) => !PLACEHOLDER.test(section) && !found.some((file) => hasSection(read(file), section)));
	if (missing.length > 0) return `${pointer.where}: ${pointer.written} — no heading ${missing.map((s) => `"${s}"`).join(', ')} in ${found.join(' or ')}`;
	return undefined;
}

describe('pointers in comments', () => {
	it('reads the forms the comments use', () => {
		const source = [
			'/**',
			' * Simplified output (README, "Output"): at most 10 fields. How hard it tries: README\'s "Rate limits',
			' * and retries". The shapes (docs/action-node.md, "Output" and "Simplify"); see docs/guarantees.md.',
			' * The rules are in README',
			' * ("Your own data"), and mock-server/README.md\'s "Control API"; in README under "Assumed endpoints".',
			' */',
			'const a = "docs/not-a-comment.md, \\"Nope\\""; // (transport/errors.ts) and nodes/shared/transport/tls-only.ts',
			'// docs/architecture.md, "Two lint',
			'// configurations" and README_OF, dist/nodes/x.ts, @n8n/node-cli/dist/x.mjs, https://example.org/docs/x.md',
			'// see harness.mts; guarantees.md, "Keep New"; not <resource>/<operation>.operation.ts, *.operation.ts, x-*.mts, this.json',
		].join('\n');
		expect(pointersIn('nodes/shared/x.ts', source).map(({ where, target, sections }) => [where, target, sections])).toEqual([
			['nodes/shared/x.ts:2', 'README', ['Output']],
			['nodes/shared/x.ts:2', 'README', ['Rate limits and retries']],
			['nodes/shared/x.ts:3', 'docs/action-node.md', ['Output', 'Simplify']],
			['nodes/shared/x.ts:3', 'docs/guarantees.md', []],
			['nodes/shared/x.ts:4', 'README', ['Your own data']],
			['nodes/shared/x.ts:5', 'mock-server/README.md', ['Control API']],
			['nodes/shared/x.ts:5', 'README', ['Assumed endpoints']],
			['nodes/shared/x.ts:7', 'transport/errors.ts', []],
			['nodes/shared/x.ts:7', 'nodes/shared/transport/tls-only.ts', []],
			['nodes/shared/x.ts:8', 'docs/architecture.md', ['Two lint configurations']],
			['nodes/shared/x.ts:10', 'harness.mts', []],
			['nodes/shared/x.ts:10', 'guarantees.md', ['Keep New']],
			['nodes/shared/x.ts:10', 'this.json', []],
		]);
	});

	it('a pointer to a file or a heading that is not there is reported, one that is there is not', () => {
		const files: Record<string, string> = {
			'README.md': '# Package\n## Install\n```\n## Not a heading\n```\n',
			'mock-server/README.md': '# Mock\n## Your own data (`--data`)\n',
			'docs/guarantees.md': '# Guarantees\n## Webhook trigger: exactly once\n',
			'nodes/shared/transport/errors.ts': '',
		};
		const read = (path: string) => files[path];
		const check = (from: string, comment: string) => pointersIn(from, comment).map((pointer) => stale(from, pointer, new Set(Object.keys(files)), read));
		expect(check('nodes/shared/x.ts', '// README, "install." (transport/errors.ts) docs/guarantees.md, "Webhook trigger"')).toEqual([undefined, undefined, undefined]);
		expect(check('mock-server/src/x.mts', '// README ("Your own data"), README\'s "Install"')).toEqual([undefined, undefined]);
		expect(check('nodes/shared/x.ts', '// README, "Simplify"; README\'s "Not a heading"; (transport/nope.ts); docs/gone.md; nodes/x/errors.ts')).toEqual([
			'nodes/shared/x.ts:1: README, "Simplify" — no heading "Simplify" in README.md',
			'nodes/shared/x.ts:1: README\'s "Not a heading" — no heading "Not a heading" in README.md',
			'nodes/shared/x.ts:1: transport/nope.ts — no file transport/nope.ts',
			'nodes/shared/x.ts:1: docs/gone.md — no file docs/gone.md',
			'nodes/shared/x.ts:1: nodes/x/errors.ts — no file nodes/x/errors.ts',
		]);
		// Short forms resolve from the pointing file's folder and its ancestors only, not from anywhere.
		expect(check('test/x.mts', '// (transport/errors.ts)')).toEqual(['test/x.mts:1: transport/errors.ts — no file transport/errors.ts']);
	});

	it('a bare name is the one file of that name nearest the pointing file; none, two, or its .ts/.mts twin only is reported', () => {
		const files = new Set([
			'package.json',
			'mock-server/package.json',
			'mock-server/src/index.mts',
			'mock-server/src/webhooks/index.mts',
			'mock-server/src/wiremock/index.mts',
			'nodes/JobSignalsTrigger/properties.ts',
			'nodes/JobSignalsPollTrigger/properties.ts',
			'nodes/shared/pages/collect.ts',
			'test/trigger/harness.mts',
			'docs/guarantees.md',
		]);
		const check = (from: string, comment: string) => pointersIn(from, comment).map((pointer) => stale(from, pointer, files, () => '## Keep New\n'));
		// The one in the pointing file's folder or an ancestor, else the only one under the nearest folder up that holds any.
		expect(check('harness/n8n/x.mts', '// package.json, collect.ts, guarantees.md, "Keep New"')).toEqual([undefined, undefined, undefined]);
		expect(check('mock-server/src/x.mts', '// package.json, index.mts')).toEqual([undefined, undefined]);
		expect(check('nodes/JobSignalsTrigger/x.ts', '// properties.ts')).toEqual([undefined]);
		expect(check('test/trigger/x.mts', '// see harness.mts')).toEqual([undefined]);
		expect(check('nodes/shared/transport/x.ts', '// paginate.ts; properties.ts; collect.mts; see harness.ts')).toEqual([
			'nodes/shared/transport/x.ts:1: paginate.ts — no file paginate.ts',
			'nodes/shared/transport/x.ts:1: properties.ts — properties.ts is ambiguous: nodes/JobSignalsTrigger/properties.ts, nodes/JobSignalsPollTrigger/properties.ts; give its folder',
			'nodes/shared/transport/x.ts:1: collect.mts — no file collect.mts (collect.ts is)',
			'nodes/shared/transport/x.ts:1: harness.ts — no file harness.ts (harness.mts is)',
		]);
		expect(check('mock-server/src/search/x.mts', '// webhooks/index.mts, search/nope.mts, test/trigger/harness.ts')).toEqual([
			undefined,
			'mock-server/src/search/x.mts:1: search/nope.mts — no file search/nope.mts',
			'mock-server/src/search/x.mts:1: test/trigger/harness.ts — no file test/trigger/harness.ts (test/trigger/harness.mts is)',
		]);
		expect(check('nodes/x.ts', '// guarantees.md, "Nope"')).toEqual(['nodes/x.ts:1: guarantees.md, "Nope" — no heading "Nope" in docs/guarantees.md']);
	});

	it('every pointer in the checkout\'s comments names a file that exists, and headings of it', () => {
		const files = sourceFiles();
		expect(files).toContain('nodes/shared/transport/request.ts');
		expect(files).toContain('eslint.tooling.config.mjs');
		expect(files.some((file) => file.includes('/dist/') || file.includes('node_modules'))).toBe(false);
		const pointers = files.flatMap((file) => pointersIn(file, readRepoFile(file)).map((pointer) => ({ file, pointer })));
		expect(pointers.length).toBeGreaterThan(50);
		const checkout = repoFiles();
		const broken = pointers.map(({ file, pointer }) => stale(file, pointer, checkout)).filter((problem) => problem !== undefined);
		expect(broken).toEqual([]);
		// Every source file of the checkout parsed by TypeScript: about 5 s on a quiet machine, over 30 s on a busy one.
	}, 180_000);
});
