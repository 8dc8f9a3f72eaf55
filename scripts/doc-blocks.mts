/**
 * The one way a generated block is written into a document: between `<!-- <block>: … -->` (saying what writes it)
 * and `<!-- /<block> -->`, inline or on lines of their own. endpoints-doc.mts, lists-doc.mts and
 * mock-readme-doc.mts hand their blocks to `writeBlocks`; with `--check` on the command line it writes nothing and
 * exits 1 when a document differs from the code (npm run typecheck runs the checks).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');

/** Rewrites each block of each document (a path from the repository's root: its blocks by name), or checks them. */
export function writeBlocks(documents: Record<string, Record<string, string>>, stale: string): void {
	let differs = false;
	for (const [document, blocks] of Object.entries(documents)) {
		const path = resolve(ROOT, document);
		const page = readFileSync(path, 'utf8');
		let written = page;
		for (const [block, content] of Object.entries(blocks)) {
			const pattern = new RegExp(`(<!-- ${block}: [^>]*-->)[\\s\\S]*?(<!-- /${block} -->)`, 'g');
			if (!pattern.test(written)) throw new Error(`${document} has no <!-- ${block}: … --> … <!-- /${block} --> block`);
			written = written.replace(pattern, (_, start: string, end: string) => `${start}${content}${end}`);
		}
		if (written === page) continue;
		if (process.argv.includes('--check')) {
			console.error(`${document}: ${stale}: run \`npm run generate\`.`);
			differs = true;
		} else writeFileSync(path, written);
	}
	if (differs) process.exit(1);
}
