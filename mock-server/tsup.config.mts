import { defineConfig } from 'tsup';

export default defineConfig({
	// node-version is an entry of its own so that index.js imports it, and so runs its check, before any other module.
	entry: { index: 'src/index.mts', contract: 'src/contract.mts', cli: 'src/cli.mts', 'node-version': 'src/base/node-version.mts' },
	format: ['esm'],
	target: 'node22',
	platform: 'node',
	dts: { entry: ['src/index.mts', 'src/contract.mts'] },
	clean: true,
	// The maps ship in the package with the sources embedded (sourcesContent): a stack trace under
	// --enable-source-maps, or a debugger, shows the .mts line even though src/ is not in the tarball.
	// mock-server/test/package-files.test.mts checks every packed map's sources are embedded.
	sourcemap: true,
	esbuildOptions(options) {
		options.sourcesContent = true;
	},
	// tsup drops the `node:` prefix from built-in imports by default, and `sqlite` exists only as `node:sqlite`.
	removeNodeProtocol: false,
});
