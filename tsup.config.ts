import { globSync } from 'node:fs';
import { defineConfig } from 'tsup';

// n8n loads community nodes with require(): one CommonJS bundle per node and
// credential, at the path package.json's `n8n` section names (the entry keys keep
// the source folders). n8n-workflow is a peer dependency and stays external; the
// contract lists the nodes name (contract/, through nodes/shared/contract.ts) are bundled in.
const entry = Object.fromEntries(
	globSync('{nodes/*/*.node.ts,credentials/*.credentials.ts}').map((file) => [file.replace(/\.ts$/, ''), file]),
);

export default defineConfig({
	entry,
	format: ['cjs'],
	target: 'node20',
	platform: 'node',
	outDir: 'dist',
	clean: true,
	sourcemap: false,
	dts: false,
	splitting: false,
});
