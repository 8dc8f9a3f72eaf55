// Counts the type assertions (`x as T`, `<T>x`; not `as const`) and non-null assertions (`x!`) in the .ts
// files under a folder, read with the TypeScript parser: `node scripts/count-casts.mjs [nodes] [-v]`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';

const folder = resolve(process.argv[2] ?? 'nodes');
const files = (dir) => readdirSync(dir).flatMap((name) => {
	const path = join(dir, name);
	return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
});
let casts = 0;
let nonNull = 0;
const perFile = new Map();
for (const file of files(folder)) {
	const visit = (node) => {
		if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && node.type.getText() !== 'const') {
			casts++;
			perFile.set(file, (perFile.get(file) ?? 0) + 1);
		}
		if (ts.isNonNullExpression(node)) nonNull++;
		ts.forEachChild(node, visit);
	};
	visit(ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true));
}
console.log(`${casts} type assertions, ${nonNull} non-null assertions in ${folder}`);
if (process.argv.includes('-v')) for (const [file, count] of [...perFile].sort((a, b) => b[1] - a[1])) console.log(`${String(count).padStart(4)}  ${file}`);
