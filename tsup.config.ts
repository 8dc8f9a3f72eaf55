import { defineConfig } from 'tsup';

// n8n loads community nodes with require(): one CommonJS bundle per node and
// credential. n8n-workflow is a peer dependency and stays external; the shared
// contract lists from mock-server/src/contract are bundled in.
export default defineConfig({
	entry: ['nodes/*/*.node.ts', 'credentials/*.credentials.ts'],
	format: ['cjs'],
	target: 'node20',
	platform: 'node',
	outDir: 'dist',
	clean: true,
	sourcemap: false,
	dts: false,
	splitting: false,
});
