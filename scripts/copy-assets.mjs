// Copies what n8n reads beside the compiled nodes (icons, codex files) into dist/.
import { cpSync, globSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

for (const file of globSync('{nodes,credentials}/**/*.{svg,png,json}')) {
	const target = join('dist', file);
	mkdirSync(dirname(target), { recursive: true });
	cpSync(file, target);
}
