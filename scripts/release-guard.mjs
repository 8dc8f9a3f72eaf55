/**
 * `prepublishOnly` of both packages (n8n-nodes-job-signals and job-signals-mock-server): `npm publish`
 * goes through only inside the release flow, `.github/workflows/publish.yml` on a version tag, with npm
 * provenance, and only once package.json names the public repository the workflow runs in (npm checks
 * the provenance statement against it). Anywhere else it stops and says what to do instead.
 * The package being published is the one npm names in `npm_package_json`.
 */
import { readFileSync } from 'node:fs';

const manifestPath = process.env.npm_package_json;
if (!manifestPath) fail('run it as the package\'s prepublishOnly script (npm publish sets npm_package_json)');
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const env = process.env;

if (env.GITHUB_ACTIONS !== 'true' || env.RELEASE_MODE !== 'true') {
	fail(
		`npm publish is refused here: ${manifest.name} is published only by .github/workflows/publish.yml, ` +
			'in GitHub Actions with npm provenance (n8n requires it for community nodes from 1 May 2026). ' +
			'To release: update CHANGELOG.md, set the same version in package.json and mock-server/package.json, commit, ' +
			'then push a tag: git tag v<version> && git push origin v<version>. See docs/releasing.md.',
	);
}
if (env.npm_config_provenance !== 'true' && env.NPM_CONFIG_PROVENANCE !== 'true') {
	fail(`npm publish of ${manifest.name} needs --provenance (npm publish --provenance --access public).`);
}
const repository = typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
const expected = `https://github.com/${env.GITHUB_REPOSITORY}`;
const normalized = String(repository ?? '').replace(/^git\+/, '').replace(/\.git$/, '');
if (normalized.toLowerCase() !== expected.toLowerCase()) {
	fail(
		`${manifest.name}'s repository.url is ${JSON.stringify(repository ?? null)}, a placeholder or another repository: ` +
			`set "repository": {"type": "git", "url": "git+${expected}.git"} in the root package.json ` +
			'(its one place; publish.yml copies it into mock-server/package.json before publishing the mock). ' +
			'npm provenance requires it to name the repository the workflow runs in.',
	);
}
if (env.GITHUB_REF_NAME !== `v${manifest.version}`) {
	fail(`the tag ${env.GITHUB_REF_NAME ?? '(none)'} is not v${manifest.version}, the version of ${manifest.name}: tag the commit that sets that version.`);
}
console.log(`release guard: ${manifest.name}@${manifest.version} from ${expected}, with provenance`);

function fail(message) {
	console.error(`\n${message}\n`);
	process.exit(1);
}
