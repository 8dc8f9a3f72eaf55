// What the mock's tarball holds (`npm pack --dry-run --json -w mock-server`): the MIT LICENSE, as the repository's package has it, and source maps that stand alone (every source embedded, since src/ is not packed).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '../..');
const MOCK = join(ROOT, 'mock-server');

/** The files `npm pack` would put in the tarball of the package in `workspace` (the root's without). */
function packedFiles(workspace?: string): string[] {
	const args = ['pack', '--dry-run', '--json', '--ignore-scripts', ...(workspace ? ['-w', workspace] : [])];
	const out = execFileSync('npm', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
	const [pack] = JSON.parse(out) as { files: { path: string }[] }[];
	return pack.files.map((f) => f.path);
}

let mockFiles: string[];
beforeAll(() => {
	if (!existsSync(join(MOCK, 'dist/index.js'))) throw new Error('mock-server/dist is missing: run `npm run build -w mock-server` first (npm test does)');
	mockFiles = packedFiles('mock-server');
}, 60_000);

describe('the packed files', () => {
	it('both tarballs hold the MIT LICENSE, the same text', () => {
		expect(mockFiles).toContain('LICENSE');
		expect(packedFiles()).toContain('LICENSE');
		const license = readFileSync(join(MOCK, 'LICENSE'), 'utf8');
		expect(license).toBe(readFileSync(join(ROOT, 'LICENSE'), 'utf8'));
		expect(license).toMatch(/^MIT License\n/);
		expect(JSON.parse(readFileSync(join(MOCK, 'package.json'), 'utf8')).license).toBe('MIT');
	}, 60_000);

	it('every packed script\'s source map is packed, and each of its sources is packed or embedded', () => {
		const packed = new Set(mockFiles);
		const scripts = mockFiles.filter((f) => f.endsWith('.js'));
		expect(scripts.length).toBeGreaterThan(0);
		let sources = 0;
		for (const script of scripts) {
			const url = /\n\/\/# sourceMappingURL=(\S+)\s*$/.exec(readFileSync(join(MOCK, script), 'utf8'))?.[1];
			if (url === undefined) continue;
			const mapPath = posix.join(posix.dirname(script), url);
			expect(packed.has(mapPath), `${script} points at ${mapPath}, which is not packed`).toBe(true);
			const map = JSON.parse(readFileSync(join(MOCK, mapPath), 'utf8')) as { sources: string[]; sourcesContent?: (string | null)[] };
			map.sources.forEach((source, i) => {
				sources++;
				const resolved = posix.join(posix.dirname(mapPath), source);
				const embedded = typeof map.sourcesContent?.[i] === 'string' && map.sourcesContent[i] !== '';
				expect(packed.has(resolved) || embedded, `${mapPath}: source ${source} is neither packed nor embedded`).toBe(true);
			});
		}
		// The maps do map something: the chunks' sources are the .mts files and the contract.
		expect(sources).toBeGreaterThan(50);
	});
});
