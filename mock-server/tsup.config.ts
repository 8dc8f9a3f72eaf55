import { defineConfig } from 'tsup';

export default defineConfig({
	entry: ['src/index.ts', 'src/contract.ts', 'src/cli.ts'],
	format: ['esm'],
	target: 'node22',
	platform: 'node',
	dts: { entry: ['src/index.ts', 'src/contract.ts'] },
	clean: true,
	sourcemap: true,
	// tsup drops the `node:` prefix from built-in imports by default, and `sqlite` exists only as `node:sqlite`.
	removeNodeProtocol: false,
});
