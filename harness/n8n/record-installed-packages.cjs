/**
 * An n8n external hook (EXTERNAL_HOOK_FILES, set by config.mts): once n8n's server is up, it records each
 * package of the nodes folder's package.json in n8n's `installed_packages` table, with n8n's own code
 * (CommunityPackagesService, as Settings → Community nodes → Install does after its download). That table
 * alone is what Settings → Community nodes lists; n8n loads the package from `.n8n/nodes` without it, so
 * a package put there by `npm install` (as packAndInstallPackage does) would work but be listed nowhere.
 * CommonJS, as n8n `require`s hook files; n8n's modules are required from the n8n that runs the hook.
 */
const { existsSync, readFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { join } = require('node:path');

/** The package's version and node types, to compare with what the table holds. */
function fingerprint(version, nodeTypes) {
	return `${version} ${[...nodeTypes].sort().join(' ')}`;
}

async function recordInstalledPackages() {
	const n8nRequire = createRequire(process.argv[1]);
	const { Container } = n8nRequire('@n8n/di');
	const { LoadNodesAndCredentials } = n8nRequire('../dist/load-nodes-and-credentials');
	const { CommunityPackagesService } = n8nRequire('../dist/modules/community-packages/community-packages.service');
	const { InstanceSettings } = n8nRequire('n8n-core');
	const service = Container.get(CommunityPackagesService);
	const { loaders } = Container.get(LoadNodesAndCredentials);
	// Read directly: n8n 1.x has no readPackageJson().
	const ledgerPath = join(Container.get(InstanceSettings).nodesDownloadDir, 'package.json');
	const ledger = existsSync(ledgerPath) ? JSON.parse(readFileSync(ledgerPath, 'utf8')) : {};
	for (const packageName of Object.keys(ledger.dependencies ?? {})) {
		const loader = loaders[packageName];
		if (!loader) continue;
		const recorded = await service.findInstalledPackage(packageName);
		const loaded = fingerprint(loader.packageJson.version, loader.loadedNodes.map((node) => `${packageName}.${node.name}`));
		if (!recorded) await service.persistInstalledPackage(loader);
		// Every n8n process of a deployment runs this hook; only a changed package (a new build) is written again.
		else if (fingerprint(recorded.installedVersion, recorded.installedNodes.map((node) => node.type)) !== loaded) {
			// n8n 2 replaces the record; n8n 1.x (no replaceInstalledPackage) removes it and records the package anew, as its own update does.
			if (service.replaceInstalledPackage) await service.replaceInstalledPackage(recorded, loader);
			else {
				await service.removePackageFromDatabase(recorded);
				await service.persistInstalledPackage(loader);
			}
		}
	}
}

module.exports = { n8n: { ready: [recordInstalledPackages] } };
