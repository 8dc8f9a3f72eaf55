/**
 * A copy of this checkout in another folder, as a clone of the working tree would be: its tracked files and
 * the new ones git does not ignore, with the repository's installed node_modules linked in (an `npm install`
 * of its own would take minutes). For what must run in a checkout and change it: the release rehearsal
 * (publish.yml's steps edit package.json) and the dev loop's test (it edits a node's source).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { REPO_ROOT } from './config.mts';

export function copyCheckout(destination: string): void {
	const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: REPO_ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
	for (const file of files) {
		// A tracked file deleted in the working tree is not part of it.
		if (!existsSync(join(REPO_ROOT, file))) continue;
		mkdirSync(dirname(join(destination, file)), { recursive: true });
		cpSync(join(REPO_ROOT, file), join(destination, file));
	}
	for (const folder of ['node_modules', 'mock-server/node_modules']) {
		if (existsSync(join(REPO_ROOT, folder))) symlinkSync(join(REPO_ROOT, folder), join(destination, folder), 'dir');
	}
}
