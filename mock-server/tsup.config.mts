import { defineConfig } from 'tsup';

export default defineConfig({
	entry: ['src/index.mts', 'src/contract.mts', 'src/cli.mts'],
	format: ['esm'],
	target: 'node22',
	platform: 'node',
	dts: { entry: ['src/index.mts', 'src/contract.mts'] },
	clean: true,
	sourcemap: true,
	// tsup drops the `node:` prefix from built-in imports by default, and `sqlite` exists only as `node:sqlite`.
	removeNodeProtocol: false,
});
