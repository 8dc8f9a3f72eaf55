/**
 * Every link the editor or the npm page shows leads somewhere that exists once the packages are published:
 * the nodes' and the credential's documentation links and both packages' homepages are the packages' npm
 * pages, and each anchor they name is a heading of the README npm shows there. The documents' relative
 * links name files and headings that exist. No placeholder host is left anywhere in the repository.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JobSignalsApi } from '../../credentials/JobSignalsApi.credentials';
import { anchors, readRepoFile as read, REPO_ROOT } from './markdown.mts';

const NPM_PAGE = 'https://www.npmjs.com/package/';
const README_OF: Record<string, string> = { 'n8n-nodes-job-signals': 'README.md', 'job-signals-mock-server': 'mock-server/README.md' };

function documentationLinks(): { where: string; url: string }[] {
	const links = [{ where: 'credentials/JobSignalsApi.credentials.ts', url: new JobSignalsApi().documentationUrl }];
	for (const codex of ['nodes/JobSignals/JobSignals.node.json', 'nodes/JobSignalsTrigger/JobSignalsTrigger.node.json', 'nodes/JobSignalsPollTrigger/JobSignalsPollTrigger.node.json']) {
		const resources = (JSON.parse(read(codex)) as { resources: Record<string, { url: string }[]> }).resources;
		for (const entries of Object.values(resources)) for (const { url } of entries) links.push({ where: codex, url });
	}
	for (const manifest of ['package.json', 'mock-server/package.json']) links.push({ where: manifest, url: (JSON.parse(read(manifest)) as { homepage: string }).homepage });
	return links;
}

describe('links', () => {
	it('every documentation link and homepage is a package\'s npm page, and its anchor a heading of that package\'s README', () => {
		const links = documentationLinks();
		expect(links.length).toBe(7);
		for (const { where, url } of links) {
			expect(url.startsWith(NPM_PAGE), `${where}: ${url}`).toBe(true);
			const [name, anchor] = url.slice(NPM_PAGE.length).split('#');
			expect(Object.keys(README_OF), `${where}: ${url}`).toContain(name);
			if (anchor !== undefined) expect([...anchors(read(README_OF[name]))], `${where}: #${anchor} in ${README_OF[name]}`).toContain(anchor);
		}
	});

	it('the anchors are read as GitHub and npm make them', () => {
		expect([...anchors('# A b\n## Credential: Job Signals API\n```\n# not a heading\n```\n## A b\n')]).toEqual(['a-b', 'credential-job-signals-api', 'a-b-1']);
	});

	it('every relative link in the documents names a file that exists, and a heading of it when it names one', () => {
		const documents = execFileSync('git', ['ls-files', '*.md'], { cwd: REPO_ROOT, encoding: 'utf8' }).split('\n').filter(Boolean).filter((path) => existsSync(join(REPO_ROOT, path)));
		expect(documents).toContain('README.md');
		const broken: string[] = [];
		for (const document of documents) {
			const text = read(document).replace(/```[\s\S]*?```/g, '');
			for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
				if (/^[a-z]+:/.test(target)) continue;
				const [path, anchor] = target.split('#');
				const file = path === '' ? document : relative(REPO_ROOT, join(REPO_ROOT, dirname(document), path));
				if (!existsSync(join(REPO_ROOT, file))) broken.push(`${document}: ${target} (no ${file})`);
				else if (anchor !== undefined && file.endsWith('.md') && !anchors(read(file)).has(anchor)) broken.push(`${document}: ${target} (no heading #${anchor} in ${file})`);
			}
		}
		expect(broken).toEqual([]);
	});

	it('no placeholder host (example.invalid) in any file of the repository', () => {
		// git grep exits 1 when nothing matches.
		const grep = spawnSync('git', ['grep', '-l', '-e', 'example[.]invalid', '--', '.', ':!test/release/links.test.mts'], { cwd: REPO_ROOT, encoding: 'utf8' });
		expect(grep.status, grep.stderr).toBe(1);
		expect(grep.stdout).toBe('');
	});
});
