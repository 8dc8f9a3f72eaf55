/**
 * `npm run scan`: what n8n's verification checks, run locally on what npm would publish. The official
 * scanner (`@n8n/scan-community-package`) only takes a registry name on its command line, so its
 * `analyzePackage` runs here on the packed tarball's contents (every file: the compiled dist/ JavaScript
 * under n8n's community-node rules and no-console, and package.json) and on the source tree; and the
 * package metadata is checked against n8n's verification guidelines. `n8n-node lint` runs on the extracted
 * tarball with n8n's default eslint config (strict mode requires it unchanged; that config ignores dist/,
 * so there it checks package.json). test/release/scan.test.mts shows the scanner failing a planted finding
 * in the dist/ JavaScript. Any finding exits 1.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { analyzePackage, SOURCE_FILE_PATTERNS } from '@n8n/scan-community-package/scanner/scanner.mjs';

const root = resolve(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'job-signals-scan-'));
const findings = [];

try {
	const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', work, '--loglevel=error'], { cwd: root, encoding: 'utf8' }));
	execFileSync('tar', ['-xzf', join(work, packed.filename), '-C', work]);
	const packageDir = join(work, 'package');
	const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));

	// The tarball's folder gets the repository's node_modules (eslint, the lint config) and n8n's default config.
	symlinkSync(join(root, 'node_modules'), join(packageDir, 'node_modules'), 'dir');
	const cli = join(root, 'node_modules/@n8n/node-cli');
	copyFileSync(join(cli, 'dist/template/templates/shared/default/eslint.config.mjs'), join(packageDir, 'eslint.config.mjs'));
	try {
		execFileSync(join(root, 'node_modules/.bin/n8n-node'), ['lint'], { cwd: packageDir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0' } });
		console.log('n8n-node lint on the packed tarball: passed');
	} catch (error) {
		findings.push(`n8n-node lint on the packed tarball failed:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
	}

	for (const [label, result] of [
		['packed tarball', await analyzePackage(packageDir)],
		['source tree', await analyzePackage(root, SOURCE_FILE_PATTERNS)],
	]) {
		if (!result.passed) findings.push(`scanner on the ${label}: ${result.message}\n${result.details ?? ''}`);
		else console.log(`scanner on the ${label}: passed${result.message ? ` (${result.message})` : ''}`);
	}

	const check = (ok, message) => ok || findings.push(`package.json: ${message}`);
	check(manifest.license === 'MIT', 'license must be MIT');
	check(manifest.keywords?.includes('n8n-community-node-package'), 'keyword n8n-community-node-package missing');
	check(manifest.n8n?.strict === true, 'n8n.strict must be true');
	check(Object.keys(manifest.dependencies ?? {}).length === 0, 'no runtime dependencies allowed');
	check(manifest.peerDependencies?.['n8n-workflow'] === '*', 'n8n-workflow must be a peer dependency "*"');
	for (const file of [...(manifest.n8n?.nodes ?? []), ...(manifest.n8n?.credentials ?? [])]) {
		check(existsSync(join(packageDir, file)), `${file} (named in the n8n section) is not in the tarball`);
	}
	// n8n-node build copies every .png/.svg of the repository into dist/ (README's screenshots too); package.json's
	// "files" leaves those out: the tarball holds what n8n loads and nothing else.
	const outside = packed.files.map((f) => f.path).filter((p) => !/^dist\/(nodes|credentials|contract)\//.test(p) && !['package.json', 'README.md', 'LICENSE'].includes(p));
	check(outside.length === 0, `the tarball holds files n8n does not load: ${outside.join(', ')}`);
	console.log(`tarball: ${packed.filename}, ${packed.entryCount} files, ${packed.size} bytes`);
} finally {
	rmSync(work, { recursive: true, force: true });
}

if (findings.length > 0) {
	console.error(findings.join('\n'));
	process.exit(1);
}
console.log('scan: no findings');
